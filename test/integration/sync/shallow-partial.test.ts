/**
 * Shallow and partial clones (DESIGN §3.1, §3.2; issue 12 point 3): with the state refspec in
 * the remote's config, `git fetch --depth=1` grafts the state's tip too, and a blobless partial
 * clone fetches the state without its blobs. A sync must then deepen the state (not the code)
 * or fetch the blobs, and never merge as if every record were new: local claims and edits are
 * kept and published, nothing of this clone's is reverted. Where the history cannot be seen,
 * sync refuses (exit 3) and changes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt, makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

const count = (c: Clone | string, ref: string) =>
  Number((typeof c === "string" ? git(c, "rev-list", "--count", ref) : c.git("rev-list", "--count", ref)).trim());
const shallowList = (c: Clone) => {
  const file = join(c.dir, ".git", "shallow");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};
const missing = (c: Clone, ref: string) =>
  c
    .git("rev-list", "--objects", "--missing=print", ref)
    .split("\n")
    .filter((l) => l.startsWith("?"));
const originFile = (origin: string, path: string) => JSON.parse(git(origin, "cat-file", "-p", `${REF}:${path}`));

/** Local work in `c`: a mission, a claim on task 1 and a retitled task 2. */
async function localWork(c: Clone): Promise<void> {
  await c.ok(["mission", "start", "--role", "engineer", "--persona", "Hermes"]);
  await c.ok(["--mission", "MSN-0001", "task", "claim", "ENG-M-0001"]);
  await c.ok(["task", "edit", "ENG-M-0002", "--title", "Renamed here"]);
}

/** What the local work must look like after the sync, here and on the origin. */
async function expectLocalWorkKept(c: Clone, origin: string, report: any): Promise<void> {
  expect(report.droppedClaims, "no claim dropped").toEqual([]);
  expect(report.conflicts, "nothing reverted as a conflict").toEqual([]);
  const t1 = await c.json<any>(["task", "show", "ENG-M-0001"], "task");
  expect(t1).toMatchObject({ status: "UNDERWAY", claimedBy: "Hermes", mission: "MSN-0001" });
  expect((await c.json<any>(["task", "show", "ENG-M-0002"], "task")).title).toBe("Renamed here");
  expect(originFile(origin, "tasks/01/1.json")).toMatchObject({ status: "UNDERWAY", claimedBy: "Hermes" });
  expect(originFile(origin, "tasks/02/2.json").title).toBe("Renamed here");
}

async function twoTasksEverywhere(n = 2) {
  const setup = await makeOriginAndClones(n);
  const c0 = setup.clones[0]!;
  await c0.ok(["task", "create", "--title", "First", "--role", "engineer"]);
  await c0.ok(["task", "create", "--title", "Second", "--role", "engineer"]);
  await c0.ok(["sync"]);
  for (const c of setup.clones.slice(1)) await c.ok(["sync"]);
  return setup;
}

describe("shallow", () => {
  it("git fetch --depth=1 after a sync: sync deepens the state, keeps the local claim and edit, and publishes them", async () => {
    const { origin, clones } = await twoTasksEverywhere();
    const [c0, c1] = clones as [Clone, Clone];
    await localWork(c1);
    await c0.ok(["task", "create", "--title", "Third, from clone 0", "--role", "engineer"]);
    await c0.ok(["task", "note", "ENG-M-0001", "from clone 0"]);
    await c0.ok(["sync"]);
    c1.git("fetch", "-q", "--depth=1");
    const tracking = c1.git("rev-parse", "refs/coordination/remotes/origin/main").trim();
    expect(shallowList(c1), "the state's tip is grafted").toContain(tracking);
    expect(count(c1, "refs/coordination/remotes/origin/main")).toBe(1);

    const report = await c1.json<any>(["sync"], "sync");
    expect(report.action).toBe("merged");
    await expectLocalWorkKept(c1, origin, report);
    const t1 = await c1.json<any>(["task", "show", "ENG-M-0001"], "task");
    expect(t1.notes.map((n: any) => n.text)).toContain("from clone 0");
    expect((await c1.json<any>(["task", "show", "3"], "task")).title).toBe("Third, from clone 0");
    expect(shallowList(c1), "the state's graft is lifted").not.toContain(tracking);
    expect(count(c1, REF)).toBe(count(origin, REF));
    c1.expectUntouched();
  });

  it("git fetch --depth=1 with the tips equal grafts the local state itself; the next sync lifts it, and log and history stay whole", async () => {
    const { origin, clones } = await twoTasksEverywhere();
    const c1 = clones[1]!;
    const full = count(c1, REF);
    c1.git("fetch", "-q", "--depth=1");
    expect(count(c1, REF), "git itself now sees one commit").toBe(1);
    const log = await c1.json<any[]>(["log"], "log");
    expect(log.length).toBe(full);
    const history = await c1.json<any>(["task", "history", "ENG-M-0002"], "history");
    expect(JSON.stringify(history)).toContain("created ENG-M-0002");
    expect((await c1.json<any>(["sync"], "sync")).action).toBe("equal");
    expect(count(c1, REF)).toBe(full);
    expect(count(origin, REF)).toBe(full);
  });

  it("git clone --depth 1: sync brings the whole state history but leaves the code shallow; later depth-1 fetches never revert local work", async () => {
    const { root, origin, clones } = await twoTasksEverywhere(1);
    const c0 = clones[0]!;
    for (let i = 0; i < 3; i++) c0.git("commit", "-q", "--allow-empty", "-m", `code ${i}`);
    c0.git("push", "-q", "origin", "main");
    const dir = join(root, "shallow-clone");
    git(root, "clone", "-q", "--depth", "1", `file://${origin}`, dir);
    const c = cloneAt(dir, 9);
    expect(count(c, "HEAD")).toBe(1);
    expect((await c.json<any>(["sync"], "sync")).action).toBe("adopted");
    expect(count(c, REF), "the whole state history").toBe(count(origin, REF));
    c.markBaseline();
    await localWork(c);
    await c0.ok(["task", "create", "--title", "Third, from clone 0", "--role", "engineer"]);
    await c0.ok(["sync"]);
    c.git("pull", "-q", "--depth=1");
    const report = await c.json<any>(["sync"], "sync");
    expect(report.action).toBe("merged");
    await expectLocalWorkKept(c, origin, report);
    expect(count(c, "HEAD"), "the code stays shallow: only the state was deepened").toBe(1);
    expect((await c.json<any[]>(["log"], "log")).length).toBe(count(origin, REF));
  });

  it("a graft the remote cannot lift (this clone's own commit): refused, exit 3, nothing merged or pushed", async () => {
    const { origin, clones } = await twoTasksEverywhere();
    const [c0, c1] = clones as [Clone, Clone];
    await localWork(c1);
    await c0.ok(["task", "create", "--title", "Third", "--role", "engineer"]);
    await c0.ok(["sync"]);
    const mine = c1.ref()!;
    writeFileSync(join(c1.dir, ".git", "shallow"), `${mine}\n`); // as a depth-1 fetch of some other remote would
    const published = git(origin, "rev-parse", REF).trim();
    const r = await c1.run(["sync", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: "E_NO_MERGE_BASE" });
    expect(JSON.parse(r.stderr).error.message).toMatch(/shallow/);
    expect(c1.ref()).toBe(mine);
    expect(git(origin, "rev-parse", REF).trim()).toBe(published);
    const human = await c1.run(["sync"]);
    expect(human.stderr.trimEnd().split("\n")).toHaveLength(2);
    expect(human.stderr).toMatch(/hint: git fetch --unshallow origin/);
  });
});

describe("blobless partial clone (git clone --filter=blob:none)", () => {
  it("sync fetches the state unfiltered, and the blobs a plain filtered git fetch left out; local work is kept", async () => {
    const { root, origin, clones } = await twoTasksEverywhere(1);
    const c0 = clones[0]!;
    git(origin, "config", "uploadpack.allowFilter", "true");
    const dir = join(root, "partial-clone");
    git(root, "clone", "-q", "--filter=blob:none", `file://${origin}`, dir);
    const c = cloneAt(dir, 9);
    const adopted = await c.json<any>(["sync"], "sync");
    expect(adopted.action).toBe("adopted");
    expect((await c.json<any[]>(["task", "list"], "tasks")).map((t) => t.title)).toEqual(["First", "Second"]);
    expect(missing(c, REF)).toEqual([]);
    c.markBaseline();

    await localWork(c);
    await c0.ok(["task", "note", "ENG-M-0002", "a note from clone 0"]);
    await c0.ok(["task", "create", "--title", "Third", "--role", "engineer"]);
    await c0.ok(["sync"]);
    c.git("fetch", "-q"); // the glob brings the state, filtered: blobs left out
    expect(missing(c, "refs/coordination/remotes/origin/main").length).toBeGreaterThan(0);

    const report = await c.json<any>(["sync"], "sync");
    expect(report.action).toBe("merged");
    await expectLocalWorkKept(c, origin, report);
    expect((await c.json<any>(["task", "show", "ENG-M-0002"], "task")).notes.map((n: any) => n.text)).toContain(
      "a note from clone 0",
    );
    expect(missing(c, REF)).toEqual([]);
    c.expectUntouched();
  });
});
