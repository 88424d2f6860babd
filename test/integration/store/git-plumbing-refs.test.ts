import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ObjectDb } from "../../../src/store/git/object-db.js";
import { breakLock, casRef, lockStatus, readRef, refFile } from "../../../src/store/git/ref-cas.js";
import { git, gitEnv, gitStatus, makeRepo } from "./plumbing-fixture.js";

const REF = "refs/coordination/main";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** A repo with `n` distinct blob ids to point refs at (refs need not name commits). */
async function repoWithOids(n: number) {
  const repo = makeRepo();
  const db = new ObjectDb(repo.gitDir);
  const oids = await Promise.all(Array.from({ length: n }, (_, i) => db.write("blob", Buffer.from(`value ${i}\n`))));
  return { ...repo, oids: oids as [string, string, string, ...string[]] };
}

const lockOf = (gitDir: string) => `${refFile(gitDir, REF)}.lock`;

describe("readRef", () => {
  it("reads loose refs, packed-only refs (skipping the header and peeled lines), symrefs and missing refs", async () => {
    const { dir, gitDir, oids } = await repoWithOids(2);
    expect(await readRef(gitDir, REF)).toBeNull();
    git(dir, ["update-ref", REF, oids[0]]);
    expect(await readRef(gitDir, REF)).toBe(oids[0]);

    git(dir, ["commit", "-q", "--allow-empty", "-m", "c"]);
    git(dir, ["tag", "-a", "v1", "-m", "annotated"]); // packs as "<tag oid> refs/tags/v1" + "^<commit>"
    git(dir, ["pack-refs", "--all"]);
    expect(existsSync(refFile(gitDir, REF))).toBe(false);
    const packed = readFileSync(join(gitDir, "packed-refs"), "utf8");
    expect(packed).toMatch(/^# pack-refs with:/);
    expect(packed).toMatch(/^\^[0-9a-f]{40}$/m);
    expect(await readRef(gitDir, REF)).toBe(oids[0]);
    expect(await readRef(gitDir, "refs/tags/v1")).toBe(git(dir, ["rev-parse", "v1"]).trim());
    expect(await readRef(gitDir, "HEAD")).toBe(git(dir, ["rev-parse", "HEAD"]).trim());
    expect(await readRef(gitDir, "refs/coordination/other")).toBeNull();

    // A packed-only ref is updated by writing the loose file, which then shadows packed-refs.
    expect(await casRef(gitDir, REF, oids[0], oids[1])).toEqual({ ok: true });
    expect(readFileSync(refFile(gitDir, REF), "utf8")).toBe(`${oids[1]}\n`);
    expect(git(dir, ["rev-parse", REF]).trim()).toBe(oids[1]);
    await expect(casRef(gitDir, "HEAD", null, oids[0])).rejects.toMatchObject({ code: "E_GIT_REF_UPDATE" }); // a symref
    expect(() => refFile(gitDir, "refs/../config")).toThrow(/Invalid ref name/);
  });

  it("reports a corrupt loose ref as E_GIT_READ_REF, and casRef still removes its lock", async () => {
    const { gitDir, oids } = await repoWithOids(1);
    mkdirSync(dirname(refFile(gitDir, REF)), { recursive: true });
    writeFileSync(refFile(gitDir, REF), "");
    await expect(readRef(gitDir, REF)).rejects.toMatchObject({
      code: "E_GIT_READ_REF",
      message: expect.stringContaining("corrupt"),
    });
    await expect(casRef(gitDir, REF, null, oids[0])).rejects.toMatchObject({ code: "E_GIT_READ_REF" });
    expect(existsSync(lockOf(gitDir))).toBe(false);
  });
});

describe("casRef", () => {
  it("succeeds, reports moved for a stale or null expectation, and never leaves its lock", async () => {
    const { dir, gitDir, oids } = await repoWithOids(3);
    expect(await casRef(gitDir, REF, null, oids[0])).toEqual({ ok: true });
    expect(git(dir, ["rev-parse", REF]).trim()).toBe(oids[0]);
    expect(existsSync(lockOf(gitDir))).toBe(false);
    expect(await casRef(gitDir, REF, null, oids[1])).toEqual({ ok: false, reason: "moved", current: oids[0] });
    expect(existsSync(lockOf(gitDir))).toBe(false);
    expect(await casRef(gitDir, REF, oids[0], oids[1])).toEqual({ ok: true });
    expect(await casRef(gitDir, REF, oids[0], oids[2])).toEqual({ ok: false, reason: "moved", current: oids[1] });
    expect(existsSync(lockOf(gitDir))).toBe(false);
    expect(git(dir, ["rev-parse", REF]).trim()).toBe(oids[1]);
  });

  it("reports a held lock with its age, leaves it alone, and real git refuses to update meanwhile", async () => {
    const { dir, gitDir, oids } = await repoWithOids(2);
    await casRef(gitDir, REF, null, oids[0]);
    writeFileSync(lockOf(gitDir), `${oids[1]}\n`); // what a killed pantheon or git leaves behind
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lockOf(gitDir), hourAgo, hourAgo);
    const r = await casRef(gitDir, REF, oids[0], oids[1]);
    expect(r).toMatchObject({ ok: false, reason: "locked", lockPath: lockOf(gitDir) });
    expect(r.ok === false && r.reason === "locked" && r.ageMs).toBeGreaterThanOrEqual(3_590_000);
    expect(existsSync(lockOf(gitDir))).toBe(true);
    const gitTry = gitStatus(dir, ["update-ref", REF, oids[1]]);
    expect(gitTry.status).not.toBe(0);
    expect(gitTry.stderr).toMatch(/main\.lock.*File exists/s);
    expect(await lockStatus(gitDir, REF)).toMatchObject({ path: lockOf(gitDir) });
    expect(await breakLock(gitDir, REF)).toMatchObject({ path: lockOf(gitDir) });
    expect(await lockStatus(gitDir, REF)).toBeNull();
    expect(await breakLock(gitDir, REF)).toBeNull();
    expect(await casRef(gitDir, REF, oids[0], oids[1])).toEqual({ ok: true });
  });

  it("waits its turn behind a real git transaction holding the lock", async () => {
    const { dir, gitDir, oids } = await repoWithOids(3);
    await casRef(gitDir, REF, null, oids[0]);
    // `git update-ref --stdin` with start/prepare holds <ref>.lock until "commit".
    const child = spawn("git", ["update-ref", "--stdin"], { cwd: dir, env: gitEnv(), stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.write(`start\nupdate ${REF} ${oids[1]} ${oids[0]}\nprepare\n`);
    await waitFor(child, "stdout", "prepare: ok");
    expect(await casRef(gitDir, REF, oids[0], oids[2])).toMatchObject({ ok: false, reason: "locked" });
    child.stdin.end("commit\n");
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(await casRef(gitDir, REF, oids[0], oids[2])).toEqual({ ok: false, reason: "moved", current: oids[1] });
  });

  it("lets exactly one of 20 concurrent swaps from the same value win", async () => {
    const { gitDir, oids } = await repoWithOids(21);
    await casRef(gitDir, REF, null, oids[0]);
    // Start times are spread over event-loop turns so that some contenders meet the lock and
    // others arrive after the winner's rename (and must see "moved"); the assertion holds either way.
    const spread = async (turns: number) => {
      for (let t = 0; t < turns; t++) await new Promise((r) => setImmediate(r));
    };
    const results = await Promise.all(
      oids.slice(1).map(async (next, i) => (await spread(i * 4), casRef(gitDir, REF, oids[0], next))),
    );
    const winners = results.flatMap((r, i) => (r.ok ? [oids[i + 1]] : []));
    expect(winners).toHaveLength(1);
    expect(results.every((r) => r.ok || r.reason === "moved" || r.reason === "locked")).toBe(true);
    expect(await readRef(gitDir, REF)).toBe(winners[0]);
    expect(existsSync(lockOf(gitDir))).toBe(false);
  });
});

describe("casRef killed at a fault point", () => {
  let bundleDir: string;
  let bundle: string;
  beforeAll(async () => {
    bundleDir = mkdtempSync(join(tmpdir(), "pantheon-fault-"));
    bundle = join(bundleDir, "cas-child.mjs");
    const contents = [
      `import { casRef } from ${JSON.stringify(join(ROOT, "src/store/git/ref-cas.ts"))};`,
      "const [gitDir, ref, expected, next] = process.argv.slice(2);",
      `const r = await casRef(gitDir, ref, expected === "null" ? null : expected, next);`,
      "process.stdout.write(JSON.stringify(r));",
    ].join("\n");
    await build({
      stdin: { contents, resolveDir: ROOT, loader: "ts", sourcefile: "cas-child.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: bundle,
      logLevel: "silent",
    });
  });
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

  const runChild = (gitDir: string, expected: string, next: string, fault: string) =>
    spawn(process.execPath, [bundle, gitDir, REF, expected, next], {
      env: gitEnv({ PANTHEON_FAULT_AT: fault }),
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("holding-lock: the ref keeps its old value, the lock stays behind and can be diagnosed and broken", async () => {
    const { dir, gitDir, oids } = await repoWithOids(3);
    await casRef(gitDir, REF, null, oids[0]);
    const child = runChild(gitDir, oids[0], oids[1], "holding-lock");
    await waitFor(child, "stderr", "pantheon-fault:holding-lock");
    expect(readFileSync(lockOf(gitDir), "utf8")).toBe(`${oids[1]}\n`);
    expect(gitStatus(dir, ["update-ref", REF, oids[2]]).status).not.toBe(0);
    child.kill("SIGKILL");
    expect(await exitOf(child)).toEqual({ code: null, signal: "SIGKILL" });

    expect(await readRef(gitDir, REF)).toBe(oids[0]);
    expect(git(dir, ["rev-parse", REF]).trim()).toBe(oids[0]);
    expect(await casRef(gitDir, REF, oids[0], oids[2])).toMatchObject({ ok: false, reason: "locked" });
    const status = await lockStatus(gitDir, REF);
    expect(status?.path).toBe(lockOf(gitDir));
    expect(status?.ageMs).toBeGreaterThanOrEqual(0);
    expect(await breakLock(gitDir, REF)).toMatchObject({ path: lockOf(gitDir) });
    expect(existsSync(lockOf(gitDir))).toBe(false);
    expect(await casRef(gitDir, REF, oids[0], oids[2])).toEqual({ ok: true });
    expect(gitStatus(dir, ["update-ref", REF, oids[1], oids[2]]).status).toBe(0);
  });

  it("after-rename: the update is durable and no lock remains", async () => {
    const { dir, gitDir, oids } = await repoWithOids(2);
    await casRef(gitDir, REF, null, oids[0]);
    const child = runChild(gitDir, oids[0], oids[1], "after-rename");
    await waitFor(child, "stderr", "pantheon-fault:after-rename");
    child.kill("SIGKILL");
    await exitOf(child);
    expect(git(dir, ["rev-parse", REF]).trim()).toBe(oids[1]);
    expect(await lockStatus(gitDir, REF)).toBeNull();
  });

  it("without a fault the child completes and prints its result", async () => {
    const { gitDir, oids } = await repoWithOids(2);
    const child = runChild(gitDir, "null", oids[1], "none");
    const out = waitFor(child, "stdout", "}");
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(JSON.parse(await out)).toEqual({ ok: true });
  });
});

/** Resolves with everything read so far once `stream` has printed `marker`; rejects if the child exits first. */
function waitFor(child: ChildProcess, stream: "stdout" | "stderr", marker: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let seen = "";
    let errText = "";
    child.stderr?.on("data", (d: Buffer) => (errText += d.toString()));
    child[stream]?.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes(marker)) resolvePromise(seen);
    });
    child.on("close", (code) => reject(new Error(`child exited (${code}) before printing ${marker}: ${errText}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
}
