import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, jsonData, runBin } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { git, makeRepo, tempDir } from "../../helpers/repo.js";
import { gitEnv, repo } from "./fixture.js";
import { requireBundle } from "./stand-ins.js";

/**
 * Issue 12 point 10: `init --hooks` rewrote a tracked hook (`.husky/commit-msg` under
 * core.hooksPath) with this machine's node and bundle paths. A hooks folder inside the working
 * tree is shared code: Pantheon writes nothing there and prints the line to add, which calls
 * `pantheon` from PATH and does nothing without a mission. Husky 8 (hooksPath .husky, the
 * project's hooks tracked there) and husky 9 (hooksPath .husky/_, generated wrappers that run
 * .husky/<hook>) layouts, built by hand.
 */

function message(dir: string): string {
  const raw = git(dir, "cat-file", "commit", "HEAD");
  return raw.slice(raw.indexOf("\n\n") + 2);
}

/** A `pantheon` on PATH (what a user has after npm install -g): the built bundle. */
function pantheonOnPath(): string {
  const bin = join(tempDir("pantheon-path-"), "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "pantheon"), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, "pantheon"), 0o755);
  return `${bin}:${process.env.PATH ?? ""}`;
}

/** The project's own commit-msg hook: it leaves a mark, so we can see it still runs. */
const USER_HOOK = `#!/bin/sh\necho "user hook ran" >> "$(git rev-parse --git-dir)/user-hook.log"\n`;

function huskyV8(dir: string): void {
  mkdirSync(join(dir, ".husky", "_"), { recursive: true });
  writeFileSync(join(dir, ".husky", "_", ".gitignore"), "*\n");
  writeFileSync(join(dir, ".husky", "commit-msg"), USER_HOOK);
  chmodSync(join(dir, ".husky", "commit-msg"), 0o755);
  git(dir, "add", ".husky/commit-msg");
  git(dir, "commit", "-q", "-m", "husky");
  git(dir, "config", "core.hooksPath", ".husky");
}

function huskyV9(dir: string): void {
  mkdirSync(join(dir, ".husky", "_"), { recursive: true });
  writeFileSync(join(dir, ".husky", "_", ".gitignore"), "*\n");
  writeFileSync(
    join(dir, ".husky", "_", "h"),
    `#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n`,
  );
  writeFileSync(join(dir, ".husky", "_", "commit-msg"), `#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n`);
  chmodSync(join(dir, ".husky", "_", "commit-msg"), 0o755);
  writeFileSync(join(dir, ".husky", "commit-msg"), USER_HOOK);
  git(dir, "add", ".husky/commit-msg");
  git(dir, "commit", "-q", "-m", "husky");
  git(dir, "config", "core.hooksPath", ".husky/_");
}

describe("init --hooks with the hooks folder in the working tree", () => {
  beforeAll(requireBundle);

  for (const [name, layout] of [
    ["husky 8 (.husky)", huskyV8],
    ["husky 9 (.husky/_)", huskyV9],
  ] as const) {
    it(`${name}: nothing in .husky is written; the line to add is printed; once added, trailers come from pantheon on PATH`, async () => {
      const dir = makeRepo();
      layout(dir);
      const files = () => git(dir, "ls-files", "--others", "--cached", "--", ".husky").split("\n").sort();
      const before = {
        files: files(),
        hook: readFileSync(join(dir, ".husky", "commit-msg"), "utf8"),
        wrapper: name.includes("9") ? readFileSync(join(dir, ".husky", "_", "commit-msg"), "utf8") : "",
      };

      const r = runBin(["init", "--yes", "--hooks", "--json"], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      const data = jsonData(r, "init");
      expect(data.hook).toBe("manual");
      expect(data.hookFile).toBe(".husky/commit-msg");
      expect(data.hookLine).toBe(
        `[ -z "$PANTHEON_MISSION" ] || pantheon hook commit-msg "$1" || echo "pantheon: no mission trailers added" >&2`,
      );
      expect(files(), "no file added or removed under .husky").toEqual(before.files);
      expect(readFileSync(join(dir, ".husky", "commit-msg"), "utf8"), "the tracked hook is untouched").toBe(
        before.hook,
      );
      if (name.includes("9"))
        expect(readFileSync(join(dir, ".husky", "_", "commit-msg"), "utf8"), "husky's wrapper is untouched").toBe(
          before.wrapper,
        );
      expect(git(dir, "status", "--porcelain", "--", ".husky")).toBe("");

      const human = runBin(["init", "--yes", "--hooks"], { cwd: dir });
      expect(human.exitCode, human.stderr).toBe(0);
      expect(human.stdout).toContain("Add this line to .husky/commit-msg:");
      expect(human.stdout).toContain(`    ${data.hookLine}`);
      expect(human.stdout).not.toContain(BIN);

      // The project's hook still runs on a plain commit; the message is untouched.
      const plain = gitEnv(dir, {}, "commit", "-q", "--allow-empty", "-m", "plain");
      expect(plain.status, plain.stderr).toBe(0);
      expect(readFileSync(join(dir, ".git", "user-hook.log"), "utf8")).toBe("user hook ran\n");

      // The user adds the line and commits it: it names no path of this machine.
      writeFileSync(join(dir, ".husky", "commit-msg"), `${before.hook}${data.hookLine}\n`);
      git(dir, "commit", "-q", "-am", "pantheon trailers");
      expect(readFileSync(join(dir, ".husky", "commit-msg"), "utf8")).not.toContain(process.execPath);
      const p = repo(dir);
      const m = await p.json(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"], "mission");
      const c = gitEnv(
        dir,
        { PANTHEON_MISSION: m.handle, PATH: pantheonOnPath() },
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "on a mission",
      );
      expect(c.status, c.stderr).toBe(0);
      expect(message(dir)).toBe(`on a mission\n\nPantheon-Mission: ${m.handle}\n`);
      // A teammate without Pantheon, or without a mission: the commit goes through unchanged.
      const teammate = spawnSync("git", ["commit", "-q", "--allow-empty", "-m", "no pantheon here"], {
        cwd: dir,
        env: testEnv({ PANTHEON_MISSION: m.handle, PATH: "/usr/bin:/bin" }),
        encoding: "utf8",
      });
      expect(teammate.status, teammate.stderr).toBe(0);
      expect(teammate.stderr).toContain("pantheon: no mission trailers added");
      expect(message(dir)).toBe("no pantheon here\n");
      expect(
        readFileSync(join(dir, ".git", "user-hook.log"), "utf8")
          .split("\n")
          .filter(Boolean),
        "the project hook ran on each of the four commits",
      ).toHaveLength(4);
    });
  }

  it("the default hooks folder (.git/hooks) still gets Pantheon's own hook", () => {
    const dir = makeRepo();
    const r = runBin(["init", "--yes", "--hooks", "--json"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const data = jsonData(r, "init");
    expect(data.hook).toBe("installed");
    expect(data.hookFile).toBe(join(dir, ".git", "hooks", "commit-msg"));
    expect(data.hookLine).toBeNull();
  });
});
