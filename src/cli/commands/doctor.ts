import type { Command } from "commander";
import { CancelledError, DoctorFoundProblems, NotFoundError, RecoveryNeedsChoice } from "../../errors.js";
import { PLAIN } from "../../render/paint.js";
import { recoverState, recoveryPlan, type RecoveryReport } from "../../services/doctor/recover-state.js";
import { isInteractive } from "../interactive.js";
import { pickRecoveryCandidate } from "../recover-prompt.js";
import { escapeText } from "../../render/escape.js";
import { runDoctor } from "../../services/doctor/doctor.js";
import { listRecords } from "../../services/kernel/record-ids.js";
import { doctorText } from "../../render/doctor-text.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view, type View } from "../view.js";

export function registerDoctorCommand(program: Command, app: App): void {
  examples(
    program
      .command("doctor")
      .description(
        "Check the state (records, references, cycles, claims, missions and summons of this clone that died, lock, fetch refspecs), the repository (format, shared permissions, the ref and its reflog) and this clone's own files (reflog tips the ref lost, a killed sync's lock, git's temporary leftovers)",
      )
      .option("--fix", "apply the safe repairs as one commit")
      .option("--break-lock", "remove a lock left behind by a killed process")
      .option(
        "--full",
        "read and validate every record from git, believing no read cache (doctor otherwise skips a record whose very blob the sealed cache validated)",
      )
      .option(
        "--recover [commit]",
        "restore a deleted or damaged refs/coordination/main from its reflog, or merge back a reflog tip it lacks: lists the states (a terminal picks one), or restores COMMIT",
      )
      .action(
        run(app, async (o: { fix?: boolean; breakLock?: boolean; full?: boolean; recover?: string | boolean }) => {
          if (o.recover !== undefined) return recoverView(app, o.recover === true ? null : String(o.recover));
          const r = await runDoctor(app.context(), {
            fix: Boolean(o.fix),
            breakLock: Boolean(o.breakLock),
            full: Boolean(o.full),
          });
          // One line per kind of finding; -v (--verbose) lists every one, --json keeps them all.
          const v = view("doctor", r, (s) => doctorText(r, s.paint, app.globals.verbose === true));
          const errors = r.findings.filter((f) => f.severity === "error").length;
          if (errors > 0) {
            // The report is the result; the exit code says something is wrong.
            app.result = v;
            throw Object.assign(new DoctorFoundProblems(errors), { report: true });
          }
          return v;
        }),
      ),
    [
      "pantheon doctor",
      "pantheon doctor --fix",
      "pantheon doctor --verbose",
      "pantheon doctor --full",
      "pantheon doctor --break-lock",
      "pantheon doctor --recover",
      "pantheon doctor --recover 3f2a9c1d5e7b",
    ],
  );
}

/**
 * `doctor --recover`: with a commit, restores it; without, lists the candidates, and at a
 * terminal asks which one (never guessing); elsewhere prints them and exits 1 with the command
 * that would restore the newest.
 */
async function recoverView(app: App, commit: string | null): Promise<View> {
  const ctx = app.context();
  if (commit !== null) {
    const r = await recoverState(ctx, commit);
    return view("recovery", r, (s) => recoveryText(r, s.paint));
  }
  const plan = await recoveryPlan(ctx);
  const v = view("recovery", plan, (s) => recoveryText(plan, s.paint));
  const healthy = plan.ref.state === "ok";
  if (healthy && plan.candidates.length === 0) return v;
  const newest = plan.candidates[0];
  if (!newest)
    throw new NotFoundError(
      `refs/coordination/main is ${plan.ref.state} and no earlier state can be restored: ${plan.incomplete} commit(s) named by the reflogs are incomplete (pruned) or not Pantheon's`,
      "git fsck --lost-found lists dangling commits; pantheon doctor --recover <commit> restores one",
    );
  if (!app.json && isInteractive(app.io)) {
    app.io.stderr.write(`${recoveryText(plan, PLAIN)}\n`);
    const chosen = await pickRecoveryCandidate(plan.candidates, healthy);
    if (chosen === null) throw new CancelledError();
    const r = await recoverState(ctx, chosen);
    return view("recovery", r, (s) => recoveryText(r, s.paint));
  }
  app.result = v;
  throw Object.assign(new RecoveryNeedsChoice(newest.commit, healthy), { report: true });
}

function recoveryText(
  r: RecoveryReport,
  p: { green(s: string): string; red(s: string): string; dim(s: string): string },
): string {
  const restored = r.restored;
  if (restored?.merged) {
    const brings = restored.brings?.length ? `: it brings back ${escapeText(listRecords(restored.brings, 50))}` : "";
    const lines = [
      `${p.green("✓")} Merged the state of ${restored.from.slice(0, 12)} back into refs/coordination/main as commit ${restored.commit.slice(0, 12)}${brings}`,
    ];
    for (const n of restored.renumbered ?? [])
      lines.push(`  ${escapeText(n.from)} → ${escapeText(n.to)} (its number had been given to another record)`);
    return lines.join("\n");
  }
  if (restored) {
    const head = `${p.green("✓")} Restored refs/coordination/main to the state of ${restored.from.slice(0, 12)} as commit ${restored.commit.slice(0, 12)}`;
    const brings = restored.brings ?? [];
    if (restored.remote)
      return brings.length
        ? `${head}: it brings back ${brings.length} record${brings.length === 1 ? "" : "s"} ${escapeText(restored.remote)} has not had: ${escapeText(listRecords(brings, 50))}\n  pantheon sync publishes them`
        : `${head}: every record it holds is on ${escapeText(restored.remote)} as last synced`;
    return `${head}: it brings back ${brings.length} record${brings.length === 1 ? "" : "s"}${brings.length ? `: ${escapeText(listRecords(brings, 50))}` : ""}`;
  }
  if (r.ref.state === "ok" && r.candidates.length === 0)
    return `${p.green("✓")} refs/coordination/main is healthy (at ${r.ref.oid!.slice(0, 12)}): nothing to recover`;
  const lines = [
    r.ref.state === "ok"
      ? `${p.red("✗")} refs/coordination/main lacks commits a reflog names; states it can merge back, newest first:`
      : `${p.red("✗")} refs/coordination/main is ${r.ref.state}${r.ref.detail ? ` (${escapeText(r.ref.detail)})` : ""}; states it can be restored to, newest first:`,
  ];
  for (const c of r.candidates) {
    lines.push(
      `  ${c.commit.slice(0, 12)}  ${c.date.slice(0, 19).replace("T", " ")}  ${escapeText(c.summary)}  ${p.dim(`(${c.source})`)}`,
    );
    if (c.commits !== undefined)
      lines.push(
        `    brings back ${c.commits} commit${c.commits === 1 ? "" : "s"}${c.brings?.length ? `: ${escapeText(listRecords(c.brings))}` : " (no record differs)"}`,
      );
  }
  if (r.incomplete > 0)
    lines.push(p.dim(`  (${r.incomplete} more named by the logs are incomplete or not Pantheon's state)`));
  return lines.join("\n");
}
