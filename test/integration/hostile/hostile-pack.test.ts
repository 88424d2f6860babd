import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Clone, cloneAt, makeOriginAndClones, REF } from "../../helpers/clones.js";
import { gitPeakRss, type Hostility, plantHostileObject } from "../../helpers/hostile-pack.js";
import { git } from "../../helpers/repo.js";

/**
 * A pack no git would write (a delta naming itself, two naming each other, an entry declaring
 * 4 GiB) in a shared-path bare repository: what a clone borrowing its objects reads
 * (`git clone --shared`: objects/info/alternates; a plain local clone: the packs hard-linked),
 * and what a clone fetching from it is sent. Every command ends in seconds with one
 * E_GIT_CORRUPT_OBJECT line naming the object, git's memory bounded (DESIGN §2.2).
 */

const MIB = 1024 * 1024;
/**
 * "In seconds", on a loaded 2-core machine: git reaches its allocation limit in 1-4 s here;
 * unbounded it runs until the kernel refuses it memory, and a stall would end at the 30 s limit.
 */
const SECONDS = 15_000;
/** Twice git's allocation limit: the delta cycle's stack is refused past 128 MiB. */
const PEAK_BOUND = 256 * MIB;
/** Over the 256 blobs from which a list reads through `git cat-file --batch`; under, one by one. */
const BATCHED = 300;

async function sharedStateWithHostileTask(kind: Hostility, tasks: number) {
  const { root, origin, clones } = await makeOriginAndClones(1);
  const a = clones[0]!;
  const list = join(root, "tasks.json");
  writeFileSync(
    list,
    JSON.stringify(Array.from({ length: tasks }, (_, i) => ({ title: `Task ${i + 1}`, role: "engineer" }))),
  );
  await a.ok(["task", "import", list]);
  await a.ok(["sync"]);
  const oid = git(origin, "rev-parse", `${REF}:tasks/02/2.json`).trim();
  plantHostileObject(origin, oid, kind);
  /** A clone of the shared repository made the given way, its state fetched by plain git. */
  const reader = (how: "--shared" | "--local", name: string): Clone => {
    const dir = join(root, name);
    git(root, "clone", "-q", how, origin, dir);
    git(dir, "config", "pantheon.autoSync", "false");
    git(dir, "fetch", "-q", "origin", `${REF}:${REF}`);
    return cloneAt(dir, 1);
  };
  return { root, origin, a, oid, reader };
}

/** Runs a command, and asserts one ✗ line naming the object, in seconds, git's memory bounded. */
async function refusedNaming(c: Clone, root: string, argv: string[], oid: string, kind: Hostility): Promise<string> {
  const t0 = performance.now();
  const { result: r, peakBytes } = await gitPeakRss(root, () => c.run(argv));
  const ms = performance.now() - t0;
  const what = `pantheon ${argv.join(" ")}\n${r.stderr}`;
  expect(r.exitCode, what).toBe(1);
  const lines = r.stderr.split("\n").filter(Boolean);
  expect(lines[0], what).toMatch(new RegExp(`^✗ Cannot read git object ${oid}: `));
  // git's reader, bounded: stopped at its allocation limit, or refused from the size its header declares.
  expect(lines[0], what).toMatch(
    kind === "huge"
      ? /git cat-file declared it as 4294967296 bytes/
      : /git cat-file tried to allocate \d+ MiB, over its 128 MiB limit/,
  );
  expect(
    lines.filter((l) => l.startsWith("✗")),
    what,
  ).toHaveLength(1);
  expect(ms, what).toBeLessThan(SECONDS);
  expect(peakBytes, what).toBeLessThan(PEAK_BOUND);
  return `${argv.join(" ")}: ${Math.round(ms)} ms, git's peak ${Math.round(peakBytes / MIB)} MiB`;
}

describe("a hostile pack in a shared repository: every read ends in one E_GIT_CORRUPT_OBJECT line, in seconds", () => {
  it.each([
    ["cycle", "--shared", BATCHED],
    ["self", "--local", 3],
    ["huge", "--shared", BATCHED],
  ] as const)(
    "%s, read by a clone made with git clone %s, %i tasks",
    async (kind, how, tasks) => {
      // --shared: the clone lists the repository in objects/info/alternates; --local: its packs are hard-linked.
      const s = await sharedStateWithHostileTask(kind, tasks);
      const c = s.reader(how, "reader");
      const report = [`${kind} (${how}, ${tasks} tasks)`];
      report.push(await refusedNaming(c, s.root, ["task", "show", "2"], s.oid, kind));
      // Cold: no read cache yet, so the list reads every record.
      rmSync(join(c.dir, ".git", "pantheon", "cache"), { recursive: true, force: true });
      report.push(await refusedNaming(c, s.root, ["task", "list"], s.oid, kind));
      report.push(await refusedNaming(c, s.root, ["dashboard"], s.oid, kind));
      report.push(await refusedNaming(c, s.root, ["doctor"], s.oid, kind));
      console.log(report.join("\n  "));
    },
    120_000,
  ); // four commands, each up to SECONDS on a loaded machine, after a 300-task set-up
});

describe("a hostile pack on the remote: sync ends in one E_GIT_CORRUPT_OBJECT line, in seconds", () => {
  it.each(["self", "cycle", "huge"] as const)("%s", async (kind) => {
    const { root, origin, clones } = await makeOriginAndClones(2);
    const [a, b] = clones as [Clone, Clone];
    await a.ok(["task", "create", "--title", "Seen by both", "--role", "engineer"]);
    await a.ok(["sync"]);
    await b.ok(["sync"]);
    await a.ok(["task", "create", "--title", "Stored hostile on the remote", "--role", "engineer"]);
    await a.ok(["sync"]);
    const oid = git(origin, "rev-parse", `${REF}:tasks/02/2.json`).trim();
    plantHostileObject(origin, oid, kind);
    const before = b.ref();
    const t0 = performance.now();
    const { result: r, peakBytes } = await gitPeakRss(root, () => b.run(["sync"]));
    const ms = performance.now() - t0;
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split("\n")[0]).toMatch(
      kind === "huge"
        ? /^✗ Cannot fetch from origin: write stream object \d+ != 4294967\d+; a pack there is corrupt or hostile$/
        : /^✗ Cannot fetch from origin: git tried to allocate \d+ MiB, over its 128 MiB limit; a pack there is corrupt or hostile$/,
    );
    expect(ms).toBeLessThan(SECONDS);
    expect(peakBytes).toBeLessThan(PEAK_BOUND);
    expect(b.ref()).toBe(before);
    console.log(
      `sync from a hostile remote (${kind}): ${Math.round(ms)} ms, git's peak ${Math.round(peakBytes / MIB)} MiB`,
    );
  });
});
