import type { Command } from "commander";
import { REVIEW_TYPES } from "../../domain/constants.js";
import { parseReviewStatus, parseReviewType } from "../../domain/review-values.js";
import { reviewDetailText, reviewDetailView, reviewLabel, reviewTable, reviewView } from "../../render/review-view.js";
import { taskSummaryView } from "../../render/task-view.js";
import { taskLabel } from "../../render/task-text.js";
import { approveReview, rejectReview, type DecisionResult } from "../../services/work/decide-review.js";
import { createReview, listReviews, showReview } from "../../services/work/reviews.js";
import type { App } from "../app.js";
import { collect, examples, list, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view, type View } from "../view.js";

function decisionView(r: DecisionResult, verb: string): View {
  const data = reviewView(r.review, r.refs);
  const task = r.task ? taskSummaryView(r.task, r.refs) : null;
  return view(
    "review",
    data,
    (s) =>
      [
        check(s, `${verb} ${reviewLabel(data)}`),
        ...(task ? [`  ${taskLabel(task)}`] : []),
        ...r.changed.filter((c) => c !== task?.id).map((c) => `  also: ${c}`),
      ].join("\n"),
    task ? [task, ...r.changed.filter((c) => c !== task.id).map((id) => ({ id }))] : undefined,
  );
}

export function registerReviewCommands(program: Command, app: App): void {
  const review = program.command("review").description("Request, list and decide reviews");

  examples(
    review
      .command("create")
      .description("Request a review (a task moved to REVIEW requests one by itself)")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--title <text>", "what to review")
      .option("--type <type>", `${REVIEW_TYPES.join(", ")} (default: task_completion with --task, else general)`)
      .option("--task <id>", "the task it is about")
      .option("--artifact <text>", "what to look at: a branch, a commit, a path")
      .action(
        run(app, async (o: { title: string; type?: string; task?: string; artifact?: string }) => {
          const r = await createReview(app.context(), {
            title: o.title,
            ...(o.type !== undefined && { type: parseReviewType(o.type) }),
            ...(o.task !== undefined && { task: o.task }),
            ...(o.artifact !== undefined && { artifact: o.artifact }),
          });
          const data = reviewView(r.review, r.refs);
          return view("review", data, (s) => check(s, `Requested ${reviewLabel(data)}`));
        }),
      ),
    ['pantheon review create --title "Token store design" --type design --artifact docs/adr/001.md'],
  );

  examples(
    review
      .command("list")
      .description("List reviews")
      .option("--status <s>", "PENDING, APPROVED, REJECTED, WITHDRAWN (repeatable)", collect)
      .action(
        run(app, async (o: { status?: string[] }) => {
          const r = await listReviews(app.context(), { status: list(o.status, parseReviewStatus) });
          const data = r.reviews.map((x) => reviewView(x, r.refs));
          return view("reviews", data, (s) => reviewTable(data, s));
        }),
      ),
    ["pantheon review list --status pending"],
  );

  examples(
    review
      .command("show <id>")
      .description("Show a review, its task's latest notes, and what you may do with it")
      .action(
        run(app, async (id: string) => {
          const data = reviewDetailView(await showReview(app.context(), id));
          return view("review", data, (s) => reviewDetailText(data, s));
        }),
      ),
    ["pantheon review show RVW-001"],
  );

  examples(
    review
      .command("approve <id>")
      .description("Approve a review; its task, if in REVIEW, becomes COMPLETE in the same commit")
      .option("--notes <text>", "what you checked")
      .option(
        "--force",
        "approve your own request, complete its task with acceptance criteria unchecked, or act through a number a sync renumbered",
      )
      .action(
        run(app, async (id: string, o: { notes?: string; force?: boolean }) =>
          decisionView(await approveReview(app.context(), { id, notes: o.notes, force: o.force }), "Approved"),
        ),
      ),
    ['pantheon --as Argus review approve RVW-001 --notes "tests cover expiry"'],
  );

  examples(
    review
      .command("reject <id>")
      .description("Reject a review; its task, if in REVIEW, goes back to UNDERWAY with what must change as a note")
      .option("--notes <text>", "what must change (required; or --reason)")
      .option("--reason <text>", "the same as --notes")
      .option("--force", "reject your own request, or through a number a sync renumbered")
      .action(
        run(app, async (id: string, o: { notes?: string; reason?: string; force?: boolean }) =>
          decisionView(
            await rejectReview(app.context(), { id, notes: o.notes, reason: o.reason, force: o.force }),
            "Rejected",
          ),
        ),
      ),
    ['pantheon --as Argus review reject RVW-001 --notes "no test for token expiry"'],
  );
}
