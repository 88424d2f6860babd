/**
 * What a sync brings in is checked record by record (DESIGN §3.2, "report each"): a record that
 * does not decode, one whose number disagrees with its path, and a stray entry are named in the
 * report's `problems`, both on a fast-forward and on a first adoption of a large state (the
 * records then read in one batch, issue 14's adoption speed).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt, makeOriginAndClones } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";
import { rewriteState } from "../../helpers/state-plumbing.js";

describe("problems in what a sync brings in", () => {
  it("a fast-forward and an adoption of 300 tasks name the broken records and the stray entry; the rest is taken", async () => {
    const { root, origin, clones } = await makeOriginAndClones(2);
    const [c0, c1] = [clones[0]!, clones[1]!];
    const file = join(root, "import.json");
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: 300 }, (_, i) => ({ key: `k${i}`, title: `Imported ${i + 1}`, role: "engineer" })),
      ),
    );
    await c0.ok(["task", "import", file]);
    rewriteState(c0.dir, {
      "tasks/05/5.json": (t) => ({ ...t, number: 6 }),
      "tasks/07/7.json": "{ not json",
      "tasks/07/notes.txt": "a stray file\n",
    });
    await c0.ok(["sync"]);

    const ff = await c1.json<any>(["sync"], "sync");
    expect(ff.action).toBe("fast-forward");
    const expectProblems = (problems: string[]) => {
      expect(problems).toHaveLength(3);
      expect(problems.find((p) => p.includes("tasks/05/5.json"))).toMatch(/number is 6, but the path says 5/);
      expect(problems.some((p) => p.includes("tasks/07/7.json"))).toBe(true);
      expect(problems).toContain("stray entry tasks/07/notes.txt (not part of the layout; ignored)");
    };
    expectProblems(ff.problems);

    const dir = join(root, "fresh");
    git(root, "clone", "-q", origin, dir);
    const fresh = cloneAt(dir, 5);
    const adopted = await fresh.json<any>(["sync"], "sync");
    expect(adopted.action).toBe("adopted");
    expectProblems(adopted.problems);
    expect((await fresh.json<any[]>(["task", "list", "--limit", "1000"], "tasks")).length).toBe(298);
  });
});
