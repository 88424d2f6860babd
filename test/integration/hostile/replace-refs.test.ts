import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initializedProject } from "../../helpers/project.js";
import { testEnv } from "../../helpers/env.js";
import { git } from "../../helpers/repo.js";

const REF = "refs/coordination/main";
/** Over the 256 blobs from which a list reads through `git cat-file --batch` (and lists shards with `git ls-tree`). */
const TASKS = 300;

/** git with `input` on stdin. */
function gitWith(cwd: string, input: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: testEnv(), input, encoding: "utf8" }).trim();
}

/**
 * git honours refs/replace/* unless GIT_NO_REPLACE_OBJECTS=1; Pantheon's own object reader never
 * does. A replace ref arrives with a fetch of refs/replace/* or sits in a shared repository, so
 * every git process Pantheon starts ignores them (DESIGN §2.2): a record reads the same whichever
 * reader reads it, and never as someone's replacement says.
 */
describe("replace refs: task show and task list agree, and ignore the replacement", () => {
  it(`a replaced task blob and a replaced shard tree, ${TASKS} tasks, cold cache then warm`, async () => {
    const p = await initializedProject();
    const list = join(p.dir, "..", "tasks.json");
    writeFileSync(
      list,
      JSON.stringify(Array.from({ length: TASKS }, (_, i) => ({ title: `Task ${i + 1}`, role: "engineer" }))),
    );
    await p.ok(["task", "import", list]);
    // Task 2's blob replaced by a copy with another title.
    const blob = git(p.dir, "rev-parse", `${REF}:tasks/02/2.json`).trim();
    const stored = JSON.parse(git(p.dir, "cat-file", "-p", blob));
    const forged = gitWith(
      p.dir,
      `${JSON.stringify({ ...stored, title: "Replaced title" }, null, 2)}\n`,
      "hash-object",
      "-w",
      "--stdin",
    );
    git(p.dir, "replace", blob, forged);
    // Shard 05's tree replaced by one without task 5.
    const shard = git(p.dir, "rev-parse", `${REF}:tasks/05`).trim();
    const entries = git(p.dir, "ls-tree", shard)
      .split("\n")
      .filter((l) => l && !l.endsWith("\t5.json"))
      .join("\n");
    const forgedTree = gitWith(p.dir, `${entries}\n`, "mktree");
    git(p.dir, "replace", shard, forgedTree);
    // git itself now answers with the replacements.
    expect(JSON.parse(git(p.dir, "cat-file", "-p", `${REF}:tasks/02/2.json`)).title).toBe("Replaced title");

    const show = await p.json(["task", "show", "2"], "task");
    expect(show.title).toBe("Task 2");
    for (const cache of ["cold", "warm"]) {
      if (cache === "cold") rmSync(join(p.dir, ".git", "pantheon", "cache"), { recursive: true, force: true });
      const tasks = await p.json<any[]>(["task", "list"], "tasks");
      expect(tasks, cache).toHaveLength(TASKS);
      expect(tasks.find((t) => t.number === 2)?.title, cache).toBe(show.title);
      expect(tasks.find((t) => t.number === 5)?.title, cache).toBe("Task 5");
    }
  });
});
