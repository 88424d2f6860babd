import type { Command } from "commander";
import { parseTaskRole } from "../../domain/roles.js";
import { parsePriority } from "../../domain/priority.js";
import { parseTaskStatus } from "../../domain/task-status.js";
import { UsageError } from "../../errors.js";
import { taskSummaryView, type TaskSummaryView } from "../../render/task-view.js";
import { taskLabel } from "../../render/task-text.js";
import { createTask } from "../../services/work/create-task.js";
import {
  claimTask,
  closeTask,
  handoffTask,
  reopenTask,
  unassignTask,
  updateTaskStatus,
  type TransitionResult,
} from "../../services/work/transition-task.js";
import type { App } from "../app.js";
import { collect, examples, repeat, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view, type View } from "../view.js";

/** The view of a transition: `✓ Claimed ENG-H-0007 ...`, plus what else the commit changed. */
export function transitionView(r: TransitionResult, verb: string): View {
  const data = taskSummaryView(r.task, r.refs);
  return view(
    "task",
    data,
    (s) => {
      if (r.unchanged) return check(s, `${taskLabel(data)} is already ${r.task.status}: nothing to change`);
      const lines = [check(s, `${verb} ${taskLabel(data)}`)];
      if (r.previous !== r.task.status) lines.push(`  ${r.previous} → ${r.task.status}`);
      if (data.waitingOnReview.length > 0 && r.event === "claim")
        lines.push(`  note: ${data.waitingOnReview.join(", ")} still in review`);
      if (r.event === "handoff" && data.blockedBy.length > 0)
        lines.push(
          `  note: still blocked by ${data.blockedBy.join(", ")}: READY, but no one can claim it until ${data.blockedBy.length === 1 ? "that is" : "those are"} done (pantheon task prereqs ${data.id})`,
        );
      for (const c of r.changed) lines.push(`  also: ${c}`);
      return lines.join("\n");
    },
    r.changed.length > 0 ? r.changed.map((id) => ({ id })) : undefined,
  );
}

export function registerTaskWriteCommands(task: Command, app: App): void {
  examples(
    task
      .command("create")
      .description("Create a TODO task")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--title <text>", "what needs doing (at most 200 characters)")
      .requiredOption("--role <role>", "who does it: architect, engineer, tester, documentarian, inspector, operator")
      .option("--priority <p>", "CRITICAL, HIGH, MEDIUM (default) or LOW", "MEDIUM")
      .option("--depends-on <id>", "a task that must finish first (repeatable, or comma-separated)", collect, [])
      .option("--description <text>", "details")
      .option("--epic <id>", "the epic it belongs to")
      .option("--label <label>", "a label: a lowercase word (repeatable, or comma-separated; at most 20)", collect, [])
      .option("--ac <text>", "an acceptance criterion, one line (repeatable; check with task check)", repeat, [])
      .action(
        run(
          app,
          async (o: {
            title: string;
            role: string;
            priority: string;
            dependsOn: string[];
            description?: string;
            epic?: string;
            label: string[];
            ac: string[];
          }) => {
            const r = await createTask(app.context(), {
              title: o.title,
              role: parseTaskRole(o.role),
              priority: parsePriority(o.priority),
              dependsOn: o.dependsOn,
              ...(o.description !== undefined && { description: o.description }),
              ...(o.epic !== undefined && { epic: o.epic }),
              labels: o.label,
              acceptance: o.ac,
            });
            const data: TaskSummaryView = taskSummaryView(r.task, r.refs);
            return view("task", data, (s) =>
              [
                check(s, `Created ${taskLabel(data)}`),
                ...(data.blockedBy.length ? [`  blocked by ${data.blockedBy.join(", ")}`] : []),
                ...(data.labels.length ? [`  labels: ${data.labels.join(", ")}`] : []),
                ...(data.acceptance.length
                  ? [`  acceptance criteria: ${data.acceptance.length} (pantheon task check ${data.id} N)`]
                  : []),
              ].join("\n"),
            );
          },
        ),
      ),
    [
      'pantheon task create --title "Design the login flow" --role architect --priority high',
      'pantheon task create --title "Implement login" --role eng --depends-on ARC-H-0001',
      'pantheon task create --title "Task API" --role eng --label api --ac "returns 404 for unknown ids"',
    ],
  );

  examples(
    task
      .command("claim <id>")
      .description("Claim a TODO or READY task for your mission (or resume a claim left on an ENDED mission)")
      .option(
        "--force",
        "claim even if the role differs, it is blocked, another persona's ENDED claim holds it, or a sync renumbered the number",
      )
      .action(
        run(app, async (id: string, o: { force?: boolean }) =>
          transitionView(await claimTask(app.context(), { id, force: Boolean(o.force) }), "Claimed"),
        ),
      ),
    ["pantheon task claim ENG-H-0007 --mission MSN-0003", "pantheon --as Hephaestus task claim 7"],
  );

  examples(
    task
      .command("update <id>")
      .description("Move a task: --status UNDERWAY, REVIEW, BLOCKED or TODO")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--status <status>", "the new status")
      .option("--notes <text>", "a note to add (say what blocks it)")
      .option("--no-review", "moving to REVIEW: do not request a review")
      .action(
        run(app, async (id: string, o: { status: string; notes?: string; review: boolean }) => {
          const status = parseTaskStatus(o.status);
          const r = await updateTaskStatus(app.context(), { id, status, notes: o.notes, noReview: !o.review });
          return transitionView(r, "Updated");
        }),
      ),
    [
      "pantheon task update ENG-H-0007 --status REVIEW",
      'pantheon task update 7 --status BLOCKED --notes "waiting for API keys"',
    ],
  );

  examples(
    task
      .command("close <id>")
      .description(
        "Close a task as COMPLETE (default) or ABORTED (needs --notes); unchecked acceptance criteria are asked about",
      )
      .option(
        "--force",
        "complete it even with acceptance criteria unchecked, or act through a number a sync renumbered",
      )
      .option("--status <status>", "COMPLETE or ABORTED", "COMPLETE")
      .option("--notes <text>", "a closing note (required for ABORTED)")
      .action(
        run(app, async (id: string, o: { status: string; notes?: string }) => {
          const status = parseTaskStatus(o.status);
          if (status !== "COMPLETE" && status !== "ABORTED")
            throw new UsageError(
              `task close --status must be COMPLETE or ABORTED, not ${status}`,
              `pantheon task update ${id} --status ${status}`,
            );
          return transitionView(
            await closeTask(app.context(), { id, status, notes: o.notes }),
            status === "ABORTED" ? "Aborted" : "Closed",
          );
        }),
      ),
    ["pantheon task close ENG-H-0007", 'pantheon task close 7 --status ABORTED --notes "superseded by ENG-H-0009"'],
  );

  examples(
    task
      .command("handoff <id>")
      .description("Hand a task on: READY for its role to claim, with a handoff note")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--notes <text>", "what the next persona needs to know")
      .action(
        run(app, async (id: string, o: { notes: string }) =>
          transitionView(await handoffTask(app.context(), { id, notes: o.notes }), "Handed off"),
        ),
      ),
    ['pantheon task handoff ENG-H-0007 --notes "design in docs/adr/0003.md; start with the token store"'],
  );

  examples(
    task
      .command("unassign <id>")
      .description("Take a task back to TODO and clear its claim (claimant, administrator or Director)")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--notes <text>", "why it is reassigned")
      .action(
        run(app, async (id: string, o: { notes: string }) =>
          transitionView(await unassignTask(app.context(), { id, notes: o.notes }), "Unassigned"),
        ),
      ),
    ['pantheon task unassign ENG-H-0007 --notes "stuck for two days; freeing it for another engineer"'],
  );

  examples(
    task
      .command("reopen <id>")
      .description("Reopen a COMPLETE or ABORTED task as TODO")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--notes <text>", "why it is reopened")
      .action(
        run(app, async (id: string, o: { notes: string }) =>
          transitionView(await reopenTask(app.context(), { id, notes: o.notes }), "Reopened"),
        ),
      ),
    ['pantheon task reopen ENG-H-0007 --notes "regression in 1.2"'],
  );
}
