import * as z from "zod/mini";
import type { Pantheon } from "../api/open-pantheon.js";
import type { CallOptions } from "../api/api-context.js";

/**
 * The persona's workflow as MCP tools: few, with one-line descriptions and terse schemas, because
 * the whole list is sent to the model before any work (task-master's costs 45,000 tokens; this one
 * stays under 2,000, measured in test/e2e/mcp-server.test.ts). Enum values are plain strings in any
 * case, parsed by the API as the CLI parses them. Each tool returns the API's data.
 */
export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodMiniObject;
  run(p: Pantheon, args: Record<string, unknown>, call: CallOptions): Promise<unknown>;
}

const text = (description?: string) => (description ? z.string().check(z.describe(description)) : z.string());
const optional = (description?: string) => z.optional(text(description));
const flag = z.optional(z.boolean());
const count = z.optional(z.number().check(z.minimum(1)));
const id = text("task id or number");
// Your mission's id; the instructions say so once rather than every tool's schema.
const mission = optional("default: this session's");
const notes = optional();
const words = z.optional(z.array(z.string()));

type Args<S extends z.core.$ZodShape> = z.infer<z.ZodMiniObject<S>>;

function tool<S extends z.core.$ZodShape>(
  name: string,
  description: string,
  shape: S,
  run: (p: Pantheon, a: Args<S>, call: CallOptions) => Promise<unknown>,
): ToolDef {
  return { name, description, input: z.object(shape), run: (p, a, call) => run(p, a as Args<S>, call) };
}

export const TOOLS: ToolDef[] = [
  tool(
    "next",
    "Ready tasks to work on, by priority then age, each with a reason.",
    { role: optional("default: your mission's"), count: count, label: optional(), mission },
    (p, a, c) => p.tasks.next({ ...c, role: a.role as "engineer", count: a.count, label: a.label }),
  ),
  tool("show", "A task with its notes and the actions you may take on it.", { id, mission }, (p, a, c) =>
    p.tasks.show(a.id, c),
  ),
  tool(
    "claim",
    "Claim a TODO or READY task; if it says published: false, run pantheon sync before working.",
    { id, force: flag, mission },
    (p, a, c) => p.tasks.claim(a.id, { ...c, force: a.force }),
  ),
  tool(
    "update",
    "Move your task: UNDERWAY, REVIEW (requests a review), BLOCKED or TODO.",
    { id, status: text(), notes, mission },
    (p, a, c) => p.tasks.update(a.id, { ...c, status: a.status as "REVIEW", notes: a.notes }),
  ),
  tool(
    "handoff",
    "Hand a task on: READY for its role, with a note for the next persona.",
    { id, notes: text(), mission },
    (p, a, c) => p.tasks.handoff(a.id, { ...c, notes: a.notes }),
  ),
  tool(
    "unassign",
    "Take a claimed task back to TODO (its claimant or an owner), saying why.",
    { id, notes: text(), mission },
    (p, a, c) => p.tasks.unassign(a.id, { ...c, notes: a.notes }),
  ),
  tool("note", "Add a note to a task.", { id, text: text(), mission }, (p, a, c) => p.tasks.note(a.id, a.text, c)),
  tool(
    "close",
    "Close a task as COMPLETE (force: with open criteria) or ABORTED (needs notes).",
    { id, status: optional(), notes, force: flag, mission },
    (p, a, c) =>
      p.tasks.close(a.id, { ...c, status: a.status as "COMPLETE" | undefined, notes: a.notes, force: a.force }),
  ),
  tool(
    "criterion",
    "Check acceptance criterion n (undo: uncheck), or add one (text).",
    { id, n: z.optional(z.number()), undo: flag, text: optional(), mission },
    (p, a, c) =>
      a.text !== undefined
        ? p.tasks.ac(a.id, a.text, c)
        : a.undo
          ? p.tasks.uncheck(a.id, a.n ?? 0, c)
          : p.tasks.check(a.id, a.n ?? 0, c),
  ),
  tool(
    "label",
    "Add labels (lowercase words) to a task, or remove them.",
    { id, labels: z.array(z.string()), remove: flag, mission },
    (p, a, c) => (a.remove ? p.tasks.unlabel(a.id, a.labels, c) : p.tasks.label(a.id, a.labels, c)),
  ),
  tool(
    "create",
    "Create a TODO task.",
    {
      title: text(),
      role: text("engineer, tester, architect..."),
      priority: optional("CRITICAL, HIGH, MEDIUM, LOW"),
      description: optional(),
      dependsOn: words,
      epic: optional(),
      labels: words,
      acceptance: words,
      mission,
    },
    (p, a, c) =>
      p.tasks.create({
        ...c,
        title: a.title,
        role: a.role as "engineer",
        priority: a.priority as "HIGH" | undefined,
        description: a.description,
        dependsOn: a.dependsOn,
        epic: a.epic,
        labels: a.labels,
        acceptance: a.acceptance,
      }),
  ),
  tool(
    "search",
    "Ranked full-text search over task titles, labels, descriptions, criteria and notes.",
    { words: text(), limit: count },
    (p, a, c) => p.tasks.search(a.words, { ...c, limit: a.limit }),
  ),
  tool("report", "Task counts per status and the completion rate.", {}, (p, _a, c) => p.tasks.report(c)),
  tool("blocked", "Open tasks with unfinished dependencies, and what blocks each.", {}, (p, _a, c) =>
    p.tasks.blocked(c),
  ),
  tool(
    "prereqs",
    "What must be done before a task or an epic, in workable order, with holders.",
    { id: text("task or epic id") },
    (p, a, c) => p.tasks.prereqs(a.id, c),
  ),
  tool("epic", "An epic's progress and its tasks.", { id: text("EPC-H-0001") }, (p, a, c) => p.epics.show(a.id, c)),
  tool("activity", "Per persona: missions, ended missions, tasks completed.", {}, (p, _a, c) => p.personas.activity(c)),
  tool(
    "review",
    "Approve or reject a pending review; its task in REVIEW moves with it.",
    {
      id: text("RVW-001"),
      decision: z.enum(["approve", "reject"]),
      notes: optional("required to reject"),
      force: flag,
      mission,
    },
    (p, a, c) =>
      a.decision === "approve"
        ? p.reviews.approve(a.id, { ...c, notes: a.notes, force: a.force })
        : p.reviews.reject(a.id, { ...c, notes: a.notes ?? "", force: a.force }),
  ),
  tool(
    "mission_start",
    "Start your mission (a persona of a role); later calls act under it.",
    { role: text(), persona: optional(), objective: optional() },
    (p, a, c) => p.missions.start({ ...c, role: a.role as "engineer", persona: a.persona, objective: a.objective }),
  ),
  tool(
    "mission_end",
    "End your mission (or another's, as its owner); release returns its claims to TODO.",
    { id: optional("default: your mission"), summary: optional(), release: flag, mission },
    (p, a, c) => p.missions.end(a.id, { ...c, summary: a.summary, release: a.release }),
  ),
];
