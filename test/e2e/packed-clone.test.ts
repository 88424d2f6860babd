import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData, runBin } from "../helpers/cli.js";
import { git, makeRepo, stateRef } from "../helpers/repo.js";

/**
 * The built command in a clone whose state is all packed: every object a command reads comes
 * from `git cat-file --batch` (cat-file-process.ts), parsed by the object engine. Found while
 * bringing isomorphic-git back: git and its pipes are unreferenced between requests (so a
 * command that is done exits), and they were unreferenced during one too, so a command waiting
 * for git's answer had nothing left to keep Node running: it exited 0, silent, having done
 * nothing.
 */
describe("a clone whose state is all packed", () => {
  it("answers every read and makes every mutation, the objects read through git", () => {
    const dir = makeRepo();
    // Every mutation packs the keep dir's loose objects at once (loose-packer.ts).
    const env = { NO_COLOR: "1", PANTHEON_PACK_LOOSE: "0" };
    const run = (argv: string[]) => runBin(argv, { cwd: dir, env });
    expect(run(["init", "--yes"]).exitCode).toBe(0);
    for (const title of ["First", "Second", "Third"]) {
      const before = stateRef(dir);
      const r = run(["task", "create", "--title", title, "--role", "engineer"]);
      expect(r.stdout, r.stderr).toMatch(new RegExp(`^✓ Created ENG-M-\\d{4} "${title}"`));
      expect(r.exitCode).toBe(0);
      expect(stateRef(dir)).not.toBe(before);
    }
    git(dir, "gc", "-q");
    const loose = readdirSync(join(dir, ".git", "objects")).filter((d) => /^[0-9a-f]{2}$/.test(d));
    expect(loose).toEqual([]);
    const show = run(["task", "show", "2"]);
    expect(show.stdout, show.stderr).toMatch(/^ENG-M-0002 {2}Second$/m);
    const note = run(["task", "note", "1", "from a packed clone"]);
    expect(note.stdout, note.stderr).toMatch(/^✓ Noted on ENG-M-0001/);
    expect(jsonData(run(["task", "list", "--json"]), "tasks").map((t: { title: string }) => t.title)).toEqual([
      "First",
      "Second",
      "Third",
    ]);
    expect(run(["log", "-n", "2"]).stdout).toMatch(/task ENG-M-0001 note by Director/);
    git(dir, "fsck", "--strict", "--no-dangling");
  });
});
