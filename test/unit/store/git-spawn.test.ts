import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnvironment } from "../../../src/store/git/git-spawn.js";

const SRC = join(__dirname, "../../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const ALL = files(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, "utf8") }));

/** The files that start processes other than git (assistants, a browser, notify-send, the hook). */
const OTHER_PROGRAMS = new Set([
  "cli/launcher.ts",
  "cli/hook-event-fast.ts",
  "web/open-browser.ts",
  // The plugin it writes for opencode imports it (a source text, run by opencode, not by us).
  "assistants/opencode.ts",
]);
/** A value import (a type import starts nothing) or a lazy require of node:child_process. */
const CHILD_PROCESS = /^import (?!type )[^;]*from "node:child_process"|lazyRequire\("node:child_process"\)/m;

describe("every git process is started by store/git/git-spawn.ts, with git's environment built there", () => {
  it("no other file loads node:child_process, except those that start other programs", () => {
    const loaders = ALL.filter((f) => CHILD_PROCESS.test(f.text) && f.file !== "store/git/git-spawn.ts").map(
      (f) => f.file,
    );
    expect(loaders.sort()).toEqual([...OTHER_PROGRAMS].sort());
  });

  it("the files that start other programs never start git", () => {
    for (const f of ALL.filter((f) => OTHER_PROGRAMS.has(f.file)))
      expect(f.text, f.file).not.toMatch(/\b(spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*["'`]git["'`]/);
  });

  it("replace refs are ignored (GIT_NO_REPLACE_OBJECTS=1) whatever the caller's environment says", () => {
    expect(gitEnvironment({ GIT_NO_REPLACE_OBJECTS: "0", HOME: "/h" })).toMatchObject({
      GIT_NO_REPLACE_OBJECTS: "1",
      HOME: "/h",
    });
  });

  it("every git process stops a runaway at 2 GiB in one allocation, unless the environment sets its own limit", () => {
    expect(gitEnvironment({}).GIT_ALLOC_LIMIT).toBe(String(2 * 1024 ** 3));
    expect(gitEnvironment({ GIT_ALLOC_LIMIT: "134217728" }).GIT_ALLOC_LIMIT).toBe("134217728");
  });
});
