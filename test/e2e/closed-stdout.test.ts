/**
 * `pantheon ... | head -1` (issue 12 point 10): the reader closes the pipe after one line, the
 * next write gets EPIPE. That printed `✗ EPIPE ... this is a bug` and exited 1. Now the command
 * ends quietly with exit 0: it did its work, and the reader took what it wanted (see cli/io.ts
 * for why 0 and not git's 141).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeRepo } from "../helpers/repo.js";

/** Runs `pantheon ARGS | head -1` in a real shell; PIPESTATUS[0] is pantheon's own exit code. */
function pipedIntoHead(dir: string, args: string): { line: string; stderr: string; status: number } {
  const script = `"${process.execPath}" "${BIN}" ${args} 2>stderr.txt | head -1; echo "status=\${PIPESTATUS[0]}" >&2; cat stderr.txt >&2`;
  const r = spawnSync("bash", ["-c", script], { cwd: dir, env: testEnv({ NO_COLOR: "1" }), encoding: "utf8" });
  const status = Number(/status=(\d+)/.exec(r.stderr)?.[1] ?? -1);
  return { line: r.stdout, stderr: r.stderr.replace(/status=\d+\n/, ""), status };
}

describe("stdout closed by its reader", () => {
  it("task show and task list piped into head -1 exit 0 with nothing on stderr", () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    // Far more than a pipe holds (64 KiB), so pantheon is still writing when head exits.
    const long = "word ".repeat(3_900);
    const entries = Array.from({ length: 300 }, (_, i) => ({
      title: `Task ${i + 1}`,
      role: "engineer",
      description: long,
    }));
    writeFileSync(join(dir, "tasks.json"), JSON.stringify(entries));
    expect(runBin(["task", "import", "tasks.json"], { cwd: dir }).exitCode).toBe(0);
    for (let i = 0; i < 20; i++) expect(runBin(["task", "note", "1", long], { cwd: dir }).exitCode).toBe(0);

    const show = pipedIntoHead(dir, "task show 1");
    expect(show.line).toMatch(/^ENG-M-0001/);
    expect(show.stderr).toBe("");
    expect(show.status).toBe(0);

    const list = pipedIntoHead(dir, "task list --json");
    expect(list.line.startsWith('{"schemaVersion":1')).toBe(true);
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
  });
});
