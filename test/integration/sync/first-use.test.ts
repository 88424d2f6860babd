/**
 * A teammate's first day (DESIGN §3.5; issue 14): a plain `git clone` brings no state. Any
 * pantheon command in such a clone takes the remote's state (and says so) or says how to get it;
 * `init` adopts, and refuses to start a second history when `.pantheon/` is committed but no
 * reachable remote has its state (exit 3, nothing written) unless `--new-state`; two histories
 * that met anyway are joined by `sync --adopt-remote`. Blobless partial clones adopt whole.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt, makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

/** The Director's clone 0 ran init and committed .pantheon/ (and the rest) to main, pushed. */
async function directorCommitted(o: { publish: boolean }) {
  const setup = await makeOriginAndClones(1, { init: false });
  const c0 = setup.clones[0]!;
  await c0.ok(["init", "--yes"]);
  await c0.ok(["config", "set", "project.type", "go"]);
  await c0.ok(["task", "create", "--title", "Director's first task", "--role", "engineer"]);
  c0.git("add", "-A");
  c0.git("commit", "-q", "-m", "Set up Pantheon");
  c0.git("push", "-q", "origin", "main");
  if (o.publish) await c0.ok(["sync"]);
  const teammate = (name: string): Clone => {
    const dir = join(setup.root, name);
    git(setup.root, "clone", "-q", setup.origin, dir);
    return cloneAt(dir, 7);
  };
  return { ...setup, c0, teammate };
}

const missing = (c: Clone) =>
  c
    .git("rev-list", "--objects", "--missing=print", REF)
    .split("\n")
    .filter((l) => l.startsWith("?"));

describe("a teammate's plain git clone", () => {
  it("brings no state; the first pantheon command takes origin's and says so, and the command runs", async () => {
    const { c0, teammate, originRef } = await directorCommitted({ publish: true });
    const t = teammate("teammate");
    expect(t.ref(), "git clone brings no state").toBeNull();
    const r = await t.run(["task", "list"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("! this clone had no Pantheon state (a git clone does not bring it): took origin's\n");
    expect(r.stdout).toContain("Director's first task");
    expect(t.ref()).toBe(originRef());
    expect(t.git("config", "--get-all", "remote.origin.fetch")).toContain(
      "+refs/coordination/main*:refs/coordination/remotes/origin/main*",
    );
    // The second command is silent, and the Director's settings are the teammate's too.
    const again = await t.run(["config", "show", "--json"]);
    expect(again.stderr).toBe("");
    expect(JSON.parse(again.stdout).data).toMatchObject({ settings: { project: { type: "go" } } });
    // A mutation as first command works the same way.
    const u = teammate("teammate2");
    const created = await u.run(["task", "create", "--title", "Teammate's task", "--role", "tester", "--json"]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).data).toMatchObject({ id: "TST-M-0002" });
    expect(c0.ref()).toBe(originRef());
  });

  it("when origin has no state yet but .pantheon/ is committed: the error says who must publish it, and init refuses to fork (exit 3, nothing written)", async () => {
    const { c0, teammate, originRef } = await directorCommitted({ publish: false });
    const t = teammate("teammate");
    const status = t.git("status", "--porcelain");
    const r = await t.run(["task", "list"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^✗ No Pantheon state in this clone .*origin has none yet, though \.pantheon\/ is committed/,
    );
    expect(r.stderr).toContain("hint: whoever ran pantheon init runs pantheon sync; then run this again");

    const init = await t.run(["init", "--yes"]);
    expect(init.exitCode).toBe(3);
    expect(init.stdout).toBe("");
    expect(init.stderr).toMatch(
      /^✗ This project's \.pantheon\/ is committed, so its Pantheon state was started in another clone, but origin has no Pantheon state yet/,
    );
    expect(init.stderr).toContain("pantheon init --new-state");
    const json = await t.run(["init", "--yes", "--json"]);
    expect(JSON.parse(json.stderr).error.code).toBe("E_WOULD_FORK");
    expect(t.ref(), "no state was started").toBeNull();
    expect(t.git("status", "--porcelain")).toBe(status);

    // Once the Director publishes, init adopts (the Director's settings, not the teammate's defaults).
    await c0.ok(["sync"]);
    const adopted = await t.ok(["init", "--yes"]);
    expect(adopted.stdout.split("\n")[0]).toMatch(/^✓ Adopted the Pantheon state of .* from origin/);
    expect(adopted.stdout).toContain("Teammates get the state the same way: git clone, then any pantheon command");
    expect(t.ref()).toBe(originRef());
    expect((await t.json<any>(["config", "show"], "config")).settings.project.type).toBe("go");
  });

  it("init --new-state insists; the two histories then meet at sync, which refuses and names --adopt-remote, which joins them in one commit", async () => {
    const { c0, teammate, originRef } = await directorCommitted({ publish: false });
    const t = teammate("teammate");
    await t.ok(["init", "--yes", "--new-state"]);
    await t.ok(["task", "create", "--title", "Teammate's A", "--role", "tester"]);
    await t.ok(["task", "create", "--title", "Teammate's B", "--role", "tester", "--depends-on", "1"]);
    await t.ok(["mission", "start", "--role", "tester", "--persona", "Artemis"]);
    await c0.ok(["sync"]); // the Director publishes: 1 task
    const published = originRef()!;
    const mine = t.ref()!;
    const refused = await t.run(["sync"]);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toMatch(/share no history/);
    expect(refused.stderr).toContain(
      "hint: pantheon sync origin --adopt-remote keeps origin's state and re-creates this clone's records on it",
    );
    expect(t.ref()).toBe(mine);

    const joined = await t.json<any>(["sync", "--adopt-remote"], "sync");
    expect(joined).toMatchObject({ action: "joined", joined: 3 });
    expect(joined.renumbered).toEqual([
      { kind: "tasks", from: "TST-M-0001", to: "TST-M-0002" },
      { kind: "tasks", from: "TST-M-0002", to: "TST-M-0003" },
      { kind: "missions", from: "MSN-0001", to: "MSN-0001" },
    ]);
    // One commit on origin's state, both histories reachable, pushed.
    expect(t.ref()).toBe(originRef());
    expect(t.git("rev-list", "--parents", "-n", "1", REF).trim().split(" ").slice(1)).toEqual([published, mine]);
    const tasks = await t.json<any[]>(["task", "list"], "tasks");
    expect(tasks.map((x) => [x.id, x.title])).toEqual([
      ["ENG-M-0001", "Director's first task"],
      ["TST-M-0002", "Teammate's A"],
      ["TST-M-0003", "Teammate's B"],
    ]);
    expect(tasks[2].dependencies, "references follow the renumbering").toEqual(["TST-M-0002"]);
    expect((await t.json<any>(["config", "show"], "config")).settings.project.type, "origin's settings kept").toBe(
      "go",
    );
    const missions = await t.json<any[]>(["mission", "list"], "missions");
    expect(missions.map((m) => m.persona)).toEqual(["Artemis"]);
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(originRef());
  });

  it("a blobless partial clone (git clone --filter=blob:none): init adopts the whole state, and a first command too", async () => {
    const { origin, teammate, root } = await directorCommitted({ publish: true });
    git(origin, "config", "uploadpack.allowFilter", "true");
    for (const [name, argv] of [
      ["partial-init", ["init", "--yes"]],
      ["partial-list", ["task", "list", "--json"]],
    ] as const) {
      const dir = join(root, name);
      git(root, "clone", "-q", "--filter=blob:none", `file://${origin}`, dir);
      const t = cloneAt(dir, 8);
      const r = await t.run([...argv]);
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
      expect(t.ref()).toBe(git(origin, "rev-parse", REF).trim());
      expect(missing(t), `${name}: every object of the state is here`).toEqual([]);
      expect((await t.json<any[]>(["task", "list"], "tasks")).map((x) => x.title)).toEqual(["Director's first task"]);
    }
    void teammate;
  });
});
