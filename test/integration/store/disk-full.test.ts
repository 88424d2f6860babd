import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { fsFailure, GitError } from "../../../src/errors.js";
import { casRef } from "../../../src/store/git/ref-cas.js";
import { runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { stateRef } from "../../helpers/repo.js";

/**
 * A full disk is said as such, naming the path, never "check permissions" (which sends the
 * Director after the wrong problem) nor "this is a bug". Against a real full file system: a small
 * tmpfs (needs root to mount; the mapping itself is checked everywhere with /dev/full, which
 * always answers ENOSPC).
 */

/** A tmpfs of `size` mounted on a fresh folder, unmounted when the test ends; null where mount is not allowed. */
function smallDisk(size: string): string | null {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-full-")));
  if (spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" }).status !== 0) {
    rmdirSync(dir);
    return null;
  }
  onTestFinished(() => {
    // A descriptor still open on it (a process that has not exited yet) makes umount busy: detach it.
    if (spawnSync("umount", [dir], { stdio: "ignore" }).status !== 0)
      spawnSync("umount", ["-l", dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const canMount = (() => {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-mount-probe-")));
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" }).status === 0;
  if (ok) spawnSync("umount", [dir], { stdio: "ignore" });
  rmdirSync(dir);
  return ok;
})();

/** Writes zeros until the file system has no page left. */
function fill(dir: string): void {
  const fd = openSync(join(dir, "filler"), "w");
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: testEnv(), encoding: "utf8" });

describe("a full disk", () => {
  it.skipIf(!existsSync("/dev/full"))("is said as such, naming the path, with a real ENOSPC (/dev/full)", () => {
    let err: unknown;
    try {
      writeFileSync("/dev/full", "x");
    } catch (e) {
      err = e;
    }
    expect((err as NodeJS.ErrnoException).code).toBe("ENOSPC");
    const f = fsFailure(err, "/dev/full", "check permissions on .git/objects");
    expect(f.reason).toBe("the disk is full (or the disk quota is used up) where /dev/full is");
    expect(f.hint).toBe("free space on that file system (df -h '/dev/full'), then run the command again");
    // Any other failure keeps the system's words and the caller's hint.
    const denied = Object.assign(new Error("EACCES: permission denied, open '/x'"), { code: "EACCES" });
    expect(fsFailure(denied, "/x", "check permissions on .git/objects")).toEqual({
      reason: "EACCES: permission denied, open '/x'",
      hint: "check permissions on .git/objects",
    });
  });

  it.skipIf(!canMount)(
    "task create on a full disk: the refusal says the disk is full and where; the ref is untouched",
    async () => {
      const disk = smallDisk("4m")!;
      const dir = join(disk, "repo");
      execFileSync("mkdir", [dir]);
      git(dir, "init", "-q", "-b", "main");
      git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
      expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
      expect(
        (await runCli(["task", "create", "--title", "Plan it", "--role", "engineer"], { cwd: dir })).exitCode,
      ).toBe(0);
      const before = stateRef(dir);
      fill(disk);
      const r = await runCli(["task", "create", "--title", "Add login", "--role", "engineer"], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(1);
      const [line, hint] = r.stderr.split("\n");
      expect(line).toMatch(
        new RegExp(
          `^✗ .*: the disk is full \\(or the disk quota is used up\\) where ${dir}/\\.git/objects is: the file system mounted at ${disk}`,
        ),
      );
      expect(hint).toMatch(/^ {2}hint: free space on that file system \(df -h .*\), then run the command again$/);
      expect(r.stderr).not.toMatch(/check permissions|this is a bug/);
      expect(stateRef(dir)).toBe(before);
      // A file beside git's objects (a planning file): not a bug either (E_DISK_FULL).
      const plan = await runCli(["--json", "task", "plan", "ENG-M-0001"], { cwd: dir });
      expect(plan.exitCode).toBe(1);
      expect(JSON.parse(plan.stderr).error).toMatchObject({
        code: "E_DISK_FULL",
        message: expect.stringMatching(
          new RegExp(`^A file could not be written: the disk is full \\(or the disk quota is used up\\) where ${dir}`),
        ),
        hint: expect.stringMatching(/^free space on that file system/),
      });
    },
  );

  it.skipIf(!canMount)("a ref update on a full disk says so, naming the lock it could not write", async () => {
    const disk = smallDisk("1m")!;
    git(disk, "init", "-q", "--bare", "repo.git");
    const commonDir = join(disk, "repo.git");
    fill(disk);
    const err = await casRef(commonDir, "refs/coordination/main", null, "a".repeat(40)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).code).toBe("E_GIT_REF_UPDATE");
    expect((err as GitError).message).toMatch(
      /^(Cannot update refs\/coordination\/main|Unable to create '.*'): the disk is full \(or the disk quota is used up\) where .*repo\.git is: the file system mounted at /,
    );
    expect((err as GitError).hint).toMatch(/^free space on that file system/);
    expect(existsSync(join(commonDir, "refs", "coordination", "main.lock"))).toBe(false);
  });
});
