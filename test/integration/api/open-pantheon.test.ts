import { describe, expect, it } from "vitest";
import { openPantheon } from "../../../src/api/open-pantheon.js";
import {
  InvalidTransitionError,
  NotFoundError,
  PantheonError,
  RepositoryError,
  UsageError,
} from "../../../src/errors.js";
import { runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { makeRepo, stateRef, tempDir } from "../../helpers/repo.js";

async function initialised(): Promise<string> {
  const dir = makeRepo();
  expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
  return dir;
}

describe("openPantheon", () => {
  it("refuses a directory outside any repository, and a missing one, as the CLI does", async () => {
    await expect(openPantheon({ cwd: tempDir() })).rejects.toMatchObject({ code: "E_NOT_A_REPO", exitCode: 1 });
    await expect(openPantheon({ cwd: "/no/such/dir" })).rejects.toBeInstanceOf(RepositoryError);
  });

  it("says the state is missing before init, with the CLI's code", async () => {
    const p = await openPantheon({ cwd: makeRepo(), env: testEnv() });
    await expect(p.tasks.list()).rejects.toMatchObject({ code: "E_NOT_INITIALIZED" });
  });

  it("leaves the ref untouched when a call is refused, and throws the coded error with its hint", async () => {
    const dir = await initialised();
    const p = await openPantheon({ cwd: dir, env: testEnv(), onWarning: () => {} });
    const t = await p.tasks.create({ title: "Add login", role: "ENG", priority: "Critical" });
    expect(t).toMatchObject({ id: "ENG-C-0001", priority: "CRITICAL", status: "TODO" });
    const before = stateRef(dir);
    const refusals: Array<[() => Promise<unknown>, new (...a: never[]) => PantheonError]> = [
      [() => p.tasks.close(t.id), InvalidTransitionError],
      [() => p.tasks.claim("99"), NotFoundError],
      [() => p.tasks.create({ title: "x", role: "wizard" as "engineer" }), UsageError],
      [() => p.tasks.list({ limit: 0 }), UsageError],
      [() => p.tasks.handoff(t.id, { notes: "" }), UsageError],
      [() => p.personas.suggest("wizard" as "engineer"), UsageError],
    ];
    for (const [call, kind] of refusals) {
      // Always a rejected promise, never a synchronous throw.
      const pending = call();
      expect(pending).toBeInstanceOf(Promise);
      const e = await pending.then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(kind);
      expect((e as PantheonError).hint).toBeTruthy();
    }
    expect(stateRef(dir)).toBe(before);
  });

  it("acts as the call's mission, else the handle's, else PANTHEON_MISSION, else the Director", async () => {
    const dir = await initialised();
    const director = await openPantheon({ cwd: dir, env: testEnv() });
    const a = await director.missions.start({ role: "engineer", persona: "Hephaestus" });
    const b = await director.missions.start({ role: "engineer", persona: "Vulcan" });
    for (const title of ["one", "two", "three"]) await director.tasks.create({ title, role: "engineer" });

    expect((await director.tasks.claim("1", { mission: a.id })).claimedBy).toBe("Hephaestus");
    const asVulcan = await openPantheon({ cwd: dir, env: testEnv(), mission: b.handle });
    expect((await asVulcan.tasks.claim("2")).claimedBy).toBe("Vulcan");
    expect((await asVulcan.tasks.claim("3", { as: "Hephaestus" })).claimedBy).toBe("Hephaestus");
    const fromEnv = await openPantheon({ cwd: dir, env: testEnv({ PANTHEON_MISSION: b.handle }) });
    expect((await fromEnv.tasks.mine()).map((t) => t.id)).toEqual(["ENG-M-0002"]);
    // The Director may not claim: claims need a persona on a mission.
    await expect(director.tasks.note("1", "looked at it")).resolves.toMatchObject({ id: "ENG-M-0001" });
    const log = await director.log({ limit: 1 });
    expect(log[0]).toMatchObject({ actor: "Director", op: "task.note" });
  });

  it("hands notices to onWarning, per call or per handle, instead of printing them", async () => {
    const dir = await initialised();
    const handle: string[] = [];
    const p = await openPantheon({ cwd: dir, env: testEnv(), onWarning: (m) => handle.push(m) });
    await p.tasks.create({ title: "Add login", role: "engineer", priority: "high" });
    const call: string[] = [];
    expect((await p.tasks.show("ENG-M-0001", { onWarning: (m) => call.push(m) })).id).toBe("ENG-H-0001");
    expect(call.join("\n")).toMatch(/ENG-M-0001 is now ENG-H-0001/);
    await p.tasks.show("ENG-L-0001");
    expect(handle.join("\n")).toMatch(/ENG-L-0001 is now ENG-H-0001/);
  });

  it("sees commits other processes make between its calls (state is read afresh)", async () => {
    const dir = await initialised();
    const p = await openPantheon({ cwd: dir, env: testEnv() });
    expect(await p.tasks.list()).toEqual([]);
    await runCli(["task", "create", "--title", "From the CLI", "--role", "tester"], { cwd: dir });
    expect((await p.tasks.list()).map((t) => t.title)).toEqual(["From the CLI"]);
  });
});
