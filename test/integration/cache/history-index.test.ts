import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { expectIndexAnswers, freshStore, REF } from "../../helpers/history-reference.js";
import { initializedProject } from "../../helpers/project.js";
import { git } from "../../helpers/repo.js";
import { CACHE_VERSION } from "../../../src/store/cache/read-cache.js";

/**
 * The history index (DESIGN §2.4a) answers what the walk of every commit answers: each record's
 * commits in `git log`'s order, each record's versions around them, the charts' facts. After
 * mutations, a sync's fast-forward and merge, a rewound or rewritten ref, commits made by git,
 * and whatever happened to its file (deleted, stale, torn, damaged): the file is a hint, never
 * trusted (test/helpers/history-reference.ts is the walk).
 */

const indexFile = (dir: string) => join(dir, ".git", "pantheon", "cache", `history-v${CACHE_VERSION}.bin`);

type Project = Awaited<ReturnType<typeof initializedProject>>;

/** A small team's day: tasks made, claimed, noted, submitted, completed, aborted, approved. */
async function workday(p: Pick<Project, "ok">, tag: string): Promise<void> {
  await p.ok(["task", "create", "--title", `Build ${tag}`, "--role", "engineer"]);
  await p.ok(["task", "create", "--title", `Check ${tag}`, "--role", "tester"]);
  const ids = (await p.ok(["task", "list", "--json"])).stdout;
  const open = JSON.parse(ids).data.filter((t: { status: string }) => t.status === "TODO");
  const [a, b] = [open.at(-2).id, open.at(-1).id];
  await p.ok(["--as", "Hephaestus", "task", "claim", a]);
  await p.ok(["--as", "Hephaestus", "task", "note", a, `working on ${tag}`]);
  await p.ok(["--as", "Hephaestus", "task", "close", a]);
  await p.ok(["task", "close", b, "--status", "ABORTED", "--notes", `not needed (${tag})`]);
}

async function project(): Promise<Project> {
  const p = await initializedProject();
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await p.ok(["epic", "create", "--title", "Login"]);
  await workday(p, "one");
  return p;
}

describe("the history index", () => {
  it("answers as the walk does after mutations, one by one and in runs (the journal's lines)", async () => {
    const p = await project();
    await expectIndexAnswers(p.dir);
    expect(existsSync(indexFile(p.dir))).toBe(true);
    await workday(p, "two");
    await p.ok(["task", "priority", "1", "critical"]);
    await p.ok(["task", "edit", "1", "--title", "Build one, renamed"]);
    await expectIndexAnswers(p.dir);
    await p.ok(["task", "reopen", "1", "--notes", "again"]);
    await expectIndexAnswers(p.dir);
  });

  it("changes no answer when its file is deleted, left stale, cut short, damaged, or not an index at all", async () => {
    const p = await project();
    await expectIndexAnswers(p.dir);
    const stale = readFileSync(indexFile(p.dir));
    await workday(p, "two");
    await expectIndexAnswers(p.dir);
    const good = readFileSync(indexFile(p.dir));

    rmSync(indexFile(p.dir));
    await expectIndexAnswers(p.dir);
    expect(existsSync(indexFile(p.dir)), "rebuilt").toBe(true);

    writeFileSync(indexFile(p.dir), stale); // saved several commits ago: extended from there
    await expectIndexAnswers(p.dir);

    writeFileSync(indexFile(p.dir), good);
    truncateSync(indexFile(p.dir), Math.floor(good.length / 2)); // torn
    await expectIndexAnswers(p.dir);

    // One flipped byte in the last section: its block's checksum fails when read, never trusted.
    const damaged = Buffer.from(good);
    damaged[damaged.length - 3]! ^= 0xff;
    writeFileSync(indexFile(p.dir), damaged);
    await expectIndexAnswers(p.dir);
    const rebuilt = readFileSync(indexFile(p.dir));
    expect(rebuilt.equals(damaged)).toBe(false);

    for (const junk of [Buffer.alloc(0), Buffer.from("PHI4"), Buffer.from("not an index at all\n".repeat(100))]) {
      writeFileSync(indexFile(p.dir), junk);
      await expectIndexAnswers(p.dir);
    }
  });

  it("follows a rewound ref, a rewritten one, and commits made by git without Pantheon's trailers", async () => {
    const p = await project();
    await expectIndexAnswers(p.dir);
    const earlier = git(p.dir, "rev-parse", `${REF}~3`).trim();
    await workday(p, "two");
    await expectIndexAnswers(p.dir);

    git(p.dir, "update-ref", REF, earlier); // rewound by hand
    await expectIndexAnswers(p.dir);
    await workday(p, "three"); // new history on the rewound ref
    await expectIndexAnswers(p.dir);

    // A commit made by git: task 1's title changed, no trailer; then Pantheon commits on top.
    const tip = git(p.dir, "rev-parse", REF).trim();
    const blob = JSON.parse(git(p.dir, "cat-file", "blob", `${tip}:tasks/01/1.json`));
    blob.title = "Changed by hand";
    const index = join(p.dir, ".git", "hand-index");
    const env = { ...process.env, GIT_INDEX_FILE: index };
    const { execFileSync } = await import("node:child_process");
    execFileSync("git", ["read-tree", tip], { cwd: p.dir, env });
    const oid = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: p.dir,
      input: `${JSON.stringify(blob, Object.keys(blob).sort(), 2)}\n`,
      encoding: "utf8",
    }).trim();
    execFileSync("git", ["update-index", "--cacheinfo", `100644,${oid},tasks/01/1.json`], { cwd: p.dir, env });
    const tree = execFileSync("git", ["write-tree"], { cwd: p.dir, env, encoding: "utf8" }).trim();
    rmSync(index);
    const hand = git(p.dir, "commit-tree", tree, "-p", tip, "-m", "edited by hand").trim();
    git(p.dir, "update-ref", REF, hand);
    await p.ok(["task", "note", "1", "after the hand edit"]);
    await expectIndexAnswers(p.dir);
    const history = await p.json<any[]>(["task", "history", "1"], "history");
    expect(history.at(-1).changes).toEqual(["note: after the hand edit"]);

    // Rewritten: the same parent, another commit (a force-push someone else made).
    git(p.dir, "update-ref", REF, git(p.dir, "commit-tree", `${hand}^{tree}`, "-p", tip, "-m", "rewritten").trim());
    await expectIndexAnswers(p.dir);
  });

  it("is not shortened by a shallow graft over parents that are present, built anew or caught up", async () => {
    const p = await project();
    await workday(p, "two");
    const cut = git(p.dir, "rev-parse", `${REF}~4`).trim();
    writeFileSync(join(p.dir, ".git", "shallow"), `${cut}\n`); // as `git fetch --depth` leaves it
    expect(git(p.dir, "rev-list", "--count", REF).trim()).toBe("5");
    rmSync(indexFile(p.dir), { force: true });
    await expectIndexAnswers(p.dir, { gitOrder: false });
    await workday(p, "three");
    await expectIndexAnswers(p.dir, { gitOrder: false });
  });

  it("answers task history and the charts without reading any commit but the task's own", async () => {
    const p = await project();
    await workday(p, "two");
    const history = await p.json<any[]>(["task", "history", "1"], "history");
    const charts = await chartsOf(p.dir);
    // Every commit object that names no event of task 1 (and is not the tip) goes missing.
    const keep = new Set([...history.map((e) => e.commit), git(p.dir, "rev-parse", REF).trim()]);
    for (const e of history) keep.add(git(p.dir, "rev-parse", `${e.commit}^`).trim());
    const gone = git(p.dir, "rev-list", REF)
      .trim()
      .split("\n")
      .filter((c) => !keep.has(c));
    expect(gone.length).toBeGreaterThan(5);
    for (const c of gone) removeObject(p.dir, c);
    expect(() => git(p.dir, "cat-file", "-e", gone[0]!)).toThrow();
    freshStore(p.dir); // as a new process: from the file
    expect(await p.json<any[]>(["task", "history", "1"], "history")).toEqual(history);
    expect(await chartsOf(p.dir)).toEqual(charts);
  });

  it("keeps a file of the previous format (SHA-1 of 16 KB blocks): read and written again, nothing walked", async () => {
    const p = await project();
    await workday(p, "two");
    const history = await p.json<any[]>(["task", "history", "1"], "history");
    const charts = await chartsOf(p.dir);
    writeFileSync(indexFile(p.dir), previousFormat(readFileSync(indexFile(p.dir))));
    // Only the task's own commits stay: a walk of the history could not give these answers.
    const keep = new Set([...history.map((e) => e.commit), git(p.dir, "rev-parse", REF).trim()]);
    for (const e of history) keep.add(git(p.dir, "rev-parse", `${e.commit}^`).trim());
    for (const c of git(p.dir, "rev-list", REF).trim().split("\n")) if (!keep.has(c)) removeObject(p.dir, c);
    freshStore(p.dir);
    expect(await p.json<any[]>(["task", "history", "1"], "history")).toEqual(history);
    expect(readFileSync(indexFile(p.dir)).toString("latin1", 0, 4)).toBe("PHI5");
    freshStore(p.dir); // the file written again, read as the next process reads it
    expect(await p.json<any[]>(["task", "history", "1"], "history")).toEqual(history);
    expect(await chartsOf(p.dir)).toEqual(charts);
  });
});

describe("the history index against a crafted history", () => {
  it("reads a trailer naming four billion records and a date past JavaScript's in bounds", async () => {
    const p = await project();
    const tip = git(p.dir, "rev-parse", REF).trim();
    const { execFileSync } = await import("node:child_process");
    const crafted = execFileSync(
      "git",
      [
        "commit-tree",
        `${tip}^{tree}`,
        "-p",
        tip,
        "-m",
        "crafted\n\nPantheon-Op: task.complete\nPantheon-Records: tasks/1-4000000000",
      ],
      { cwd: p.dir, env: { ...process.env, GIT_AUTHOR_DATE: "@9999999999999 +0000" }, encoding: "utf8" },
    ).trim();
    git(p.dir, "update-ref", REF, crafted);
    await p.ok(["task", "note", "1", "after the crafted commit"]);
    const history = await p.json<any[]>(["task", "history", "1"], "history");
    const odd = history.find((e) => e.commit === crafted);
    expect(odd).toMatchObject({ op: "task.complete", date: "1970-01-01T00:00:00.000Z", changes: [] });
    const log = await p.json<any[]>(["log", "-n", "2"], "log");
    expect(log[1]).toMatchObject({ commit: crafted, date: "1970-01-01T00:00:00.000Z" });
    const charts = await chartsOf(p.dir);
    // Counted as closing the 200,000 numbers it names first (the trailer's bound), on 1970-01-01:
    // the day chart runs from then (its 10,000 days' bound) and shows the last 90.
    expect(charts.daysOmitted).toBe(10_000 - 90);
    expect((await freshStore(p.dir).historyFacts()).closedPerDay.get("1970-01-01")).toBe(200_000);
  });
});

describe("the history index across clones", () => {
  it("answers as the walk does after a sync's fast-forward and after its merge, in both clones", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    for (const c of [c0, c1]) await c.ok(["mission", "start", "--role", "engineer", "--persona", `P${c.index}`]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await workday(asProject(c0, "P0"), "c0 one");
    await expectIndexAnswers(c1.dir);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]); // fast-forward: many commits the journal here never saw
    await expectIndexAnswers(c1.dir);

    await workday(asProject(c0, "P0"), "c0 two");
    await workday(asProject(c1, "P1"), "c1 two");
    await c1.ok(["task", "note", "1", "changed here while the other clone completed others"]);
    await expectIndexAnswers(c1.dir);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]); // a merge: both sides' commits, interleaved by time
    expect(git(c1.dir, "rev-list", "--merges", "--count", REF).trim()).not.toBe("0");
    await expectIndexAnswers(c1.dir);
    await c0.ok(["sync"]); // the other clone fast-forwards onto the merge
    await expectIndexAnswers(c0.dir);
    await workday(asProject(c1, "P1"), "c1 three"); // and mutations after a merge
    await expectIndexAnswers(c1.dir);
  });

  it("task history lists the sync merge that brought a task's change from the other clone", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Shared", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["task", "priority", "1", "critical"]);
    await c0.ok(["sync"]);
    await c1.ok(["task", "create", "--title", "Local only", "--role", "tester"]);
    await c1.ok(["sync"]); // merges c0's priority change in
    const merge = git(c1.dir, "rev-parse", REF).trim();
    expect(git(c1.dir, "rev-list", "--parents", "-n", "1", merge).trim().split(" ")).toHaveLength(3);
    const history = await c1.json<any[]>(["task", "history", "1"], "history");
    expect(history.map((e) => e.op)).toEqual(["task.create", "task.priority", "sync.merge"]);
    expect(history.at(-1)).toMatchObject({ commit: merge, changes: ["priority: MEDIUM → CRITICAL"] });
  });
});

function asProject(c: Clone, persona: string): Pick<Project, "ok"> {
  // Claims in workday() go through --as; each clone has its own persona.
  return { ok: (argv: string[]) => c.ok(argv.map((a) => (a === "Hephaestus" ? persona : a))) };
}

async function chartsOf(dir: string) {
  const { chartHistory } = await import("../../../src/services/views/history-charts.js");
  const { ContextFactory } = await import("../../../src/api/api-context.js");
  const { testEnv } = await import("../../helpers/env.js");
  return chartHistory(new ContextFactory({ cwd: dir, env: testEnv(), onWarning: () => {} }).for(), {});
}

/**
 * The index file as the previous release wrote it (magic PHI4): the same header and sections,
 * each section's 16 KB blocks checked by the first 64 bits of their SHA-1.
 */
function previousFormat(file: Buffer): Buffer {
  const hlen = file.readUInt32LE(4);
  const header = JSON.parse(file.toString("utf8", 8, 8 + hlen));
  const data = file.subarray(Math.ceil((8 + hlen) / 8) * 8);
  for (const place of Object.values<{ at: number; bytes: number; sums: unknown }>(header.sections)) {
    const sums: string[] = [];
    for (let b = 0; b < place.bytes; b += 16 * 1024) {
      const block = data.subarray(place.at + b, place.at + Math.min(place.bytes, b + 16 * 1024));
      sums.push(createHash("sha1").update(block).digest("hex").slice(0, 16));
    }
    place.sums = sums;
  }
  const text = Buffer.from(JSON.stringify(header));
  const head = Buffer.alloc(Math.ceil((8 + text.length) / 8) * 8);
  head.write("PHI4", 0, "latin1");
  head.writeUInt32LE(text.length, 4);
  text.copy(head, 8);
  return Buffer.concat([head, data]);
}

/** Deletes a loose object, and its second name in Pantheon's keep dir. */
function removeObject(dir: string, oid: string): void {
  for (const base of [join(dir, ".git", "objects"), join(dir, ".git", "objects", "pantheon")]) {
    const path = join(base, oid.slice(0, 2), oid.slice(2));
    if (existsSync(path)) rmSync(path, { force: true });
  }
  const packs = join(dir, ".git", "objects", "pack");
  if (existsSync(packs)) expect(readdirSync(packs).filter((f) => statSync(join(packs, f)).size > 0)).toEqual([]);
}
