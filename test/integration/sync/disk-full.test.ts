/**
 * A full disk (security round, point 9): a clone on a small tmpfs, really filled. A sync whose
 * fetch runs out of space says the disk is full and where (not "check the remote"), and names
 * the partial pack git left; doctor reports such leftovers once nothing touches them; a write
 * that finds no space says so (not "check permissions"); a sync that cannot even write its lock
 * says so and leaves no empty lock behind. Needs a tmpfs mount (root); skipped elsewhere.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { jsonData } from "../../helpers/cli.js";
import { cloneAt, makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

/** A tmpfs of `size` mounted for this test and removed after it, or null where mounting is not allowed. */
function smallDisk(size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), "pantheon-disk-"));
  if (spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  onTestFinished(() => {
    spawnSync("umount", [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Mounting needs root; elsewhere (a CI runner as a user) the test is skipped. */
const probe = process.getuid?.() === 0;

/** Fills the file system at `dir` until only `leaveBytes` remain (0: nothing). */
function fill(dir: string, leaveBytes: number): void {
  const s = statfsSync(dir);
  const free = s.bavail * s.bsize;
  const file = join(dir, `filler-${Date.now()}`);
  try {
    writeFileSync(file, Buffer.alloc(Math.max(0, free - leaveBytes)));
  } catch {
    // ENOSPC on the last block: full, as wanted
  }
}

const packLeftovers = (c: Clone) =>
  readdirSync(join(c.dir, ".git", "objects", "pack")).filter((n) => n.startsWith("tmp_pack_"));

describe.skipIf(!probe)("a clone on a full disk", () => {
  it("a fetch out of space says the disk is full and where; doctor names git's leftover; a write says disk full, not permissions", async () => {
    const disk = smallDisk("6m");
    if (!disk) return expect.fail("mount -t tmpfs refused although running as root");
    const { root, origin, clones } = await makeOriginAndClones(1);
    const c0 = clones[0]!;
    git(root, "clone", "-q", origin, join(disk, "clone"));
    const t = cloneAt(join(disk, "clone"), 1);
    t.git("config", "pantheon.autoSync", "false");
    await t.ok(["sync"]);
    await t.ok(["task", "create", "--title", "Written while there was room", "--role", "tester"]);
    // About 2 MB of state that does not compress, published from a clone with room to spare.
    const plan = join(root, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify(
        Array.from({ length: 240 }, (_, i) => ({
          title: `Big ${i}`,
          role: "engineer",
          description: randomBytes(6000).toString("base64"),
        })),
      ),
    );
    await c0.ok(["task", "import", plan]);
    await c0.ok(["sync"]);

    fill(disk, 400 * 1024);
    const before = t.ref();
    const r = await t.run(["sync"]);
    expect(r.exitCode, r.stderr).toBe(3);
    const [line, hint] = r.stderr.trimEnd().split("\n");
    expect(line).toMatch(
      new RegExp(
        `^✗ Cannot fetch from origin: the disk is full \\(or the disk quota is used up\\) where ${join(t.dir, ".git", "objects")} is: the file system mounted at ${disk}, \\d+ KiB free \\(git: .*No space left on device\\); nothing was merged`,
      ),
    );
    const left = packLeftovers(t);
    expect(left.length, "git's index-pack left its partial pack").toBeGreaterThan(0);
    expect(line).toContain(`git left ${join(t.dir, ".git", "objects", "pack", left[0]!)}`);
    expect(hint).toBe(
      `  hint: free space on that file system (df -h ${disk}), then run the command again: pantheon sync origin`,
    );
    expect(r.stderr).not.toMatch(/check the remote/);
    expect(t.ref()).toBe(before);
    expect(existsSync(join(t.dir, ".git", "pantheon", "sync.lock"))).toBe(false);

    // doctor: nothing while the file could still be a live fetch's; named once untouched for an hour.
    for (const f of readdirSync(disk).filter((n) => n.startsWith("filler-"))) rmSync(join(disk, f));
    const codes = (d: any) => d.findings.map((f: any) => f.code);
    expect(codes(jsonData(await t.run(["doctor", "--json"]), "doctor"))).not.toContain("W_GIT_LEFTOVERS");
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    for (const n of left) utimesSync(join(t.dir, ".git", "objects", "pack", n), hourAgo, hourAgo);
    const doctor = jsonData(await t.run(["doctor", "--json"]), "doctor");
    const finding = doctor.findings.find((f: any) => f.code === "W_GIT_LEFTOVERS");
    expect(finding).toMatchObject({ severity: "warning", subject: `objects/pack/${left[0]}` });
    expect(finding.message).toMatch(
      /^git left 1 temporary file in the object store \(\d+\.\d KiB, the oldest 61 min old\)/,
    );
    expect(finding.fix).toBe(
      `when no git command runs in this repository: rm -f ${join(t.dir, ".git", "objects", "pack", left[0]!)}`,
    );

    // Nothing left at all: a write, then a sync that cannot even write its lock.
    fill(disk, 0);
    const write = await t.run(["task", "create", "--title", "No room", "--role", "engineer"]);
    expect(write.exitCode).toBe(1);
    expect(write.stderr).toMatch(
      new RegExp(
        `^✗ Cannot write git object [0-9a-f]{40}: the disk is full .* mounted at ${disk}.*; nothing was changed\\n {2}hint: free space on that file system`,
      ),
    );
    expect(write.stderr).not.toMatch(/check permissions/);
    expect(t.ref()).toBe(before);
    const sync = await t.run(["sync"]);
    expect(sync.exitCode).toBe(3);
    expect(sync.stderr).toMatch(/^✗ Cannot take the sync lock .*sync\.lock: the disk is full/);
    expect(existsSync(join(t.dir, ".git", "pantheon", "sync.lock")), "no empty lock left to block the next sync").toBe(
      false,
    );
  });
});
