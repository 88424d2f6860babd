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
const mission = optional("your mission id (default: this session's)");
const notes = optional();

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
    { role: optional("default: your mission's"), count: count, mission },
    (p, a, c) => p.tasks.next({ ...c, role: a.role as "engineer", count: a.count }),
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
    "Close a task as COMPLETE (default) or ABORTED (needs notes).",
    { id, status: optional(), notes, mission },
    (p, a, c) => p.tasks.close(a.id, { ...c, status: a.status as "COMPLETE" | undefined, notes: a.notes }),
  ),
  tool(
    "create",
    "Create a TODO task.",
    {
      title: text(),
      role: text("engineer, tester, architect..."),
      priority: optional("CRITICAL, HIGH, MEDIUM, LOW"),
      description: optional(),
      dependsOn: z.optional(z.array(z.string())),
      epic: optional(),
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
      }),
  ),
  tool(
    "search",
    "Ranked full-text search over task titles, descriptions and notes.",
    { words: text(), limit: count },
    (p, a, c) => p.tasks.search(a.words, { ...c, limit: a.limit }),
  ),
  tool("report", "Task counts per status and the completion rate.", {}, (p, _a, c) => p.tasks.report(c)),
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
        : p.reviews.reject(a.id, { ...c, reason: a.notes ?? "", force: a.force }),
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
