import type { Command } from "commander";
import { PantheonError } from "../../errors.js";
import { escapeText } from "../../render/escape.js";
import { runDoctor, type DoctorReport } from "../../services/doctor.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { check, view } from "../view.js";

/** Doctor found something wrong: exit 1 after printing the report (stdout keeps the result). */
class DoctorFoundProblems extends PantheonError {
  constructor(count: number) {
    super("E_DOCTOR", 1, `doctor found ${count} problem${count === 1 ? "" : "s"}`, "pantheon doctor --fix repairs what is marked fixable");
  }
}

export function registerDoctorCommand(program: Command, app: App): void {
  examples(
    program
      .command("doctor")
      .description("Check the state: records, references, cycles, claims, missions (and summons of this clone that died), lock and fetch refspecs")
      .option("--fix", "apply the safe repairs as one commit")
      .option("--break-lock", "remove a lock left behind by a killed process")
      .action(run(app, async (o: { fix?: boolean; breakLock?: boolean }) => {
        const r = await runDoctor(app.context(), { fix: Boolean(o.fix), breakLock: Boolean(o.breakLock) });
        const v = view("doctor", r, (s) => doctorText(r, s.paint));
        const errors = r.findings.filter((f) => f.severity === "error").length;
        if (errors > 0) {
          // The report is the result; the exit code says something is wrong.
          app.result = v;
          throw Object.assign(new DoctorFoundProblems(errors), { report: true });
        }
        return v;
      })),
    ["pantheon doctor", "pantheon doctor --fix", "pantheon doctor --break-lock"],
  );
}

function doctorText(r: DoctorReport, p: { green(s: string): string; red(s: string): string; yellow(s: string): string; dim(s: string): string }): string {
  const lines: string[] = [];
  for (const f of r.fixed) lines.push(`${p.green("✓")} ${escapeText(f)}`);
  if (r.commit) lines.push(p.dim(`  repairs committed as ${r.commit.slice(0, 12)}`));
  const c = r.counts;
  if (r.findings.length === 0) lines.push(`${p.green("✓")} State is healthy: ${c.tasks} tasks, ${c.epics} epics, ${c.missions} missions, ${c.reviews} reviews`);
  for (const f of r.findings) {
    const mark = f.severity === "error" ? p.red("✗") : p.yellow("!");
    lines.push(`${mark} ${escapeText(f.message)}`, `  ${p.dim("fix:")} ${escapeText(f.fix)}`);
  }
  return lines.join("\n");
}
