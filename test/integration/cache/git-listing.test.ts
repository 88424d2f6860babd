import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../../helpers/cli.js";
import { git, makeRepo } from "../../helpers/repo.js";

const READS = [
  ["task", "list", "--json"],
  ["task", "report", "--json"],
  ["task", "blocked", "--json"],
];

describe("a full rebuild of a large kind", () => {
  it("lists it with one git ls-tree when git is there, and answers exactly as listing the trees itself", () => {
    const dir = makeRepo();
    const run = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
      runBin(argv, { cwd: dir, env: { NO_COLOR: "1", ...env } });
    expect(run(["init", "--yes"]).exitCode).toBe(0);
    const file = join(dir, "import.json");
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: 140 }, (_, i) => ({
          key: `k${i}`,
          title: `t${i}`,
          role: "engineer",
          ...(i % 4 === 3 ? { depends_on: [`k${i - 1}`] } : {}),
        })),
      ),
    );
    expect(run(["task", "import", file]).exitCode).toBe(0);
    // Stray entries beside the shards and inside one, as another tool might leave them.
    const tip = git(dir, "rev-parse", "refs/coordination/main").trim();
    const blob = git(dir, "hash-object", "-w", "--stdin").trim();
    const index = { GIT_INDEX_FILE: join(dir, ".git", "stray-index") };
    const g = (...a: string[]) =>
      execFileSync("git", a, { cwd: dir, env: { ...process.env, ...index }, encoding: "utf8" });
    g("read-tree", tip);
    g("update-index", "--add", "--cacheinfo", `100644,${blob},tasks/07/notes.txt`);
    g("update-index", "--add", "--cacheinfo", `100644,${blob},tasks/README`);
    const tree = g("write-tree").trim();
    const commit = git(dir, "commit-tree", tree, "-p", tip, "-m", "strays").trim();
    git(dir, "update-ref", "refs/coordination/main", commit);

    const answers = (env: NodeJS.ProcessEnv) =>
      READS.map((argv) => {
        rmSync(join(dir, ".git", "pantheon", "cache"), { recursive: true, force: true }); // a full rebuild each time
        const r = run(argv, env);
        expect(r.exitCode, r.stderr).toBe(0);
        return [r.stdout, r.stderr];
      });
    const withGit = answers({});
    const withoutGit = answers({ PATH: "/nonexistent" });
    expect(withGit).toEqual(withoutGit);
    expect(JSON.parse(withGit[0]![0]!).data).toHaveLength(140);
    expect(withGit[0]![1]).toContain("tasks/07/notes.txt");
    expect(withGit[0]![1]).toContain("tasks/README");
  });
});
