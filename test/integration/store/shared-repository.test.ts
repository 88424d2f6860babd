import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, jsonData, runCli } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { git, makeRepo, stateRef, tempDir } from "../../helpers/repo.js";

/** Issue 12 point 9, DESIGN §2.2: what Pantheon creates in the common dir honours core.sharedRepository as git does. */

const mode = (p: string) => statSync(p).mode & 0o7777;
const octal = (m: number) => `0${m.toString(8)}`;

/** An objects/xx directory git creates itself now (a blob whose prefix dir does not exist yet). */
function gitMadeObjectDir(dir: string): { dir: string; file: string } {
  for (let i = 0; ; i++) {
    const content = `probe ${i}\n`;
    const probe = spawnSync("git", ["hash-object", "--stdin"], {
      cwd: dir,
      env: testEnv(),
      input: content,
      encoding: "utf8",
    }).stdout.trim();
    if (existsSync(join(dir, ".git", "objects", probe.slice(0, 2)))) continue;
    spawnSync("git", ["hash-object", "-w", "--stdin"], { cwd: dir, env: testEnv(), input: content });
    return {
      dir: join(dir, ".git", "objects", probe.slice(0, 2)),
      file: join(dir, ".git", "objects", probe.slice(0, 2), probe.slice(2)),
    };
  }
}

/** Pantheon's objects: the dirs and files of the state ref's commit, tree and blobs. */
function stateObjects(dir: string): string[] {
  const oids = git(dir, "rev-list", "--objects", "--no-walk", "refs/coordination/main")
    .split("\n")
    .map((l) => l.split(" ")[0]!)
    .filter(Boolean);
  return oids.map((o) => join(dir, ".git", "objects", o.slice(0, 2), o.slice(2))).filter((p) => existsSync(p));
}

function allUnder(root: string): string[] {
  const out = [root];
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (statSync(p).isDirectory()) out.push(...allUnder(p));
    else out.push(p);
  }
  return out;
}

describe.each(["group", "all", "true", "0640", "0660", "umask"])("core.sharedRepository = %s", (setting) => {
  it("gives the ref, its lock's directory, the reflog, objects and pantheon/ the modes git gives its own", async () => {
    // Set before the first commit: every directory git itself makes then honours it too.
    const dir = tempDir();
    git(dir, "init", "-q", "-b", "main");
    git(dir, "config", "core.sharedRepository", setting);
    git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
    expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
    expect((await runCli(["task", "create", "--title", "Shared", "--role", "engineer"], { cwd: dir })).exitCode).toBe(
      0,
    );
    expect((await runCli(["task", "list"], { cwd: dir })).exitCode).toBe(0); // a read writes the cache
    // What git itself makes under the same setting and umask.
    git(dir, "update-ref", "--create-reflog", "refs/gitmade/other", stateRef(dir)!);
    const gitDir = mode(join(dir, ".git", "refs", "gitmade"));
    const gitFile = mode(join(dir, ".git", "refs", "gitmade", "other"));
    const gitObject = gitMadeObjectDir(dir);
    const g = join(dir, ".git");
    const expectations: Array<[string, number]> = [
      [join(g, "refs", "coordination"), gitDir],
      [join(g, "refs", "coordination", "main"), gitFile],
      [join(g, "logs", "refs", "coordination"), mode(join(g, "logs", "refs", "gitmade"))],
      [join(g, "logs", "refs", "coordination", "main"), mode(join(g, "logs", "refs", "gitmade", "other"))],
      ...stateObjects(dir).flatMap(
        (f): Array<[string, number]> => [
          [join(f, ".."), mode(gitObject.dir)],
          [f, mode(gitObject.file)],
        ],
      ),
      ...allUnder(join(g, "pantheon")).map((p): [string, number] => [p, statSync(p).isDirectory() ? gitDir : gitFile]),
    ];
    expect(expectations.length).toBeGreaterThan(12);
    const wrong = expectations
      .filter(([p, want]) => mode(p) !== want)
      .map(([p, want]) => `${p.slice(g.length)} is ${octal(mode(p))}, git makes ${octal(want)}`);
    expect(wrong).toEqual([]);
    // And doctor finds nothing to say about it.
    const doctor = jsonData(await runCli(["doctor", "--json"], { cwd: dir }), "doctor");
    expect(doctor.findings.filter((f: { code: string }) => f.code === "W_SHARED_PERMISSIONS")).toEqual([]);
  });
});

describe("doctor and permissions made before the setting", () => {
  it("reports what does not honour core.sharedRepository and --fix applies git's bits", async () => {
    const dir = makeRepo();
    expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
    expect(mode(join(dir, ".git", "refs", "coordination"))).toBe(0o755);
    git(dir, "config", "core.sharedRepository", "group");
    const r = await runCli(["doctor", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(0); // a warning: the state itself is healthy
    const finding = jsonData(r, "doctor").findings.find((f: { code: string }) => f.code === "W_SHARED_PERMISSIONS");
    expect(finding).toMatchObject({ severity: "warning", fixable: true });
    expect(finding.message).toMatch(/core\.sharedRepository = group/);
    const before = stateRef(dir);
    const fixed = await runCli(["doctor", "--fix"], { cwd: dir });
    expect(fixed.exitCode).toBe(0);
    expect(fixed.stdout).toMatch(/applied core\.sharedRepository's permissions to \d+ path/);
    expect(stateRef(dir)).toBe(before); // permissions are not state: no commit
    expect(mode(join(dir, ".git", "refs", "coordination"))).toBe(0o2775);
    expect(mode(join(dir, ".git", "refs", "coordination", "main"))).toBe(0o664);
    expect(jsonData(await runCli(["doctor", "--json"], { cwd: dir }), "doctor").findings).toEqual([]);
  });
});

// A real second member of the group: we run as root here, so `setpriv` can become another user.
const canSwitchUser = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;

describe.skipIf(!canSwitchUser)("a second member of the group", () => {
  it("writes after the first one, with core.sharedRepository=group", () => {
    const GROUP = 100; // "users"
    const OTHER = 65534; // nobody
    const root = tempDir("pantheon-shared-");
    chmodSync(root, 0o755);
    const dir = join(root, "repo");
    git(root, "init", "-q", "-b", "main", "--shared=group", dir);
    chownSync(dir, 0, GROUP);
    // The whole repository belongs to the group, as a shared repository's admin sets it up.
    for (const p of allUnder(dir)) chownSync(p, 0, GROUP);
    git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
    const env = testEnv({ NO_COLOR: "1", HOME: root });
    const asRoot = (argv: string[]) => spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, env, encoding: "utf8" });
    const asOther = (argv: string[]) =>
      spawnSync(
        "setpriv",
        [`--reuid=${OTHER}`, `--regid=${OTHER}`, `--groups=${GROUP}`, process.execPath, BIN, ...argv],
        { cwd: dir, env, encoding: "utf8" },
      );
    for (const argv of [
      ["init", "--yes"],
      ["task", "create", "--title", "First", "--role", "engineer"],
      ["task", "list"],
    ]) {
      const r = asRoot(argv);
      expect(r.status, r.stderr).toBe(0);
    }
    for (const argv of [
      ["task", "create", "--title", "Second", "--role", "engineer"],
      ["task", "list"],
      ["task", "note", "1", "from the other user"],
    ]) {
      const r = asOther(argv);
      expect(r.status, `${argv.join(" ")} as uid ${OTHER}: ${r.stderr}`).toBe(0);
    }
    // ...and the first user again, after the second created files of its own.
    const again = asRoot(["task", "create", "--title", "Third", "--role", "engineer"]);
    expect(again.status, again.stderr).toBe(0);
    const titles = jsonData(
      { stdout: asRoot(["task", "list", "--json"]).stdout, stderr: "", exitCode: 0 },
      "tasks",
    ).map((t: { title: string }) => t.title);
    expect(titles).toEqual(["First", "Second", "Third"]);
    git(dir, "fsck", "--strict");
  });

  it("packs after the first one packed: the kept packs, the keep dir's lock and staging are the group's", () => {
    const GROUP = 100;
    const OTHER = 65534;
    const root = tempDir("pantheon-shared-pack-");
    chmodSync(root, 0o755);
    const dir = join(root, "repo");
    git(root, "init", "-q", "-b", "main", "--shared=group", dir);
    for (const p of allUnder(dir)) chownSync(p, 0, GROUP);
    git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
    // Every mutation packs what the keep dir holds loose, rolling up the packs before it.
    const env = testEnv({ NO_COLOR: "1", HOME: root, PANTHEON_PACK_LOOSE: "0" });
    const as = (uid: number, argv: string[]) =>
      spawnSync("setpriv", [`--reuid=${uid}`, `--regid=${uid}`, `--groups=${GROUP}`, process.execPath, BIN, ...argv], {
        cwd: dir,
        env,
        encoding: "utf8",
      });
    const steps: Array<[number, string[]]> = [
      [0, ["init", "--yes"]],
      [0, ["task", "create", "--title", "First", "--role", "engineer"]],
      [OTHER, ["task", "create", "--title", "Second", "--role", "engineer"]],
      [OTHER, ["task", "note", "1", "from the other user"]],
      [0, ["task", "create", "--title", "Third", "--role", "engineer"]],
    ];
    for (const [uid, argv] of steps) {
      const r = as(uid, argv);
      expect(r.status, `${argv.join(" ")} as uid ${uid}: ${r.stderr}`).toBe(0);
    }
    const g = join(dir, ".git");
    const keeps = readdirSync(join(g, "objects", "pack")).filter((n) => n.endsWith(".keep"));
    expect(keeps.length).toBeGreaterThan(0);
    for (const k of keeps) expect(octal(mode(join(g, "objects", "pack", k)))).toBe("0444");
    expect(octal(mode(join(g, "objects", "pantheon", "packing")))).toBe("02775");
    expect(readdirSync(join(g, "objects", "pantheon")).filter((n) => n.endsWith(".lock"))).toEqual([]);
    expect(existsSync(join(g, "objects", "pantheon", "packing.failed"))).toBe(false);
    git(dir, "fsck", "--strict");
    const titles = jsonData({ stdout: as(0, ["task", "list", "--json"]).stdout, stderr: "", exitCode: 0 }, "tasks").map(
      (t: { title: string }) => t.title,
    );
    expect(titles).toEqual(["First", "Second", "Third"]);
  });

  it("syncs after the first one synced: pantheon/, the sync lock and the last synced tips are the group's", () => {
    // Found by the issue 12 verification: the first sync made pantheon/ 02755 and its files 0644,
    // so the second member's sync failed with EACCES ("this is a bug"), and so did its summon.
    const GROUP = 100;
    const OTHER = 65534;
    const root = tempDir("pantheon-shared-sync-");
    chmodSync(root, 0o755);
    const origin = join(root, "origin.git");
    const dir = join(root, "repo");
    git(root, "init", "-q", "--bare", "--shared=group", origin);
    git(root, "init", "-q", "-b", "main", "--shared=group", dir);
    git(dir, "remote", "add", "origin", origin);
    git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
    git(dir, "push", "-q", "origin", "main");
    for (const p of [...allUnder(dir), ...allUnder(origin)]) chownSync(p, 0, GROUP);
    // The origin belongs to root: git's own ownership check (read from global config only) is
    // told it is safe, as a shared repository's admin would.
    const global = join(root, "gitconfig");
    writeFileSync(global, "[safe]\n\tdirectory = *\n");
    chmodSync(global, 0o644);
    const env = testEnv({ NO_COLOR: "1", HOME: root, GIT_CONFIG_GLOBAL: global });
    const asRoot = (argv: string[]) => spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, env, encoding: "utf8" });
    const asOther = (argv: string[]) =>
      spawnSync(
        "setpriv",
        [`--reuid=${OTHER}`, `--regid=${OTHER}`, `--groups=${GROUP}`, process.execPath, BIN, ...argv],
        { cwd: dir, env, encoding: "utf8" },
      );
    for (const argv of [["init", "--yes"], ["task", "create", "--title", "First", "--role", "engineer"], ["sync"]]) {
      const r = asRoot(argv);
      expect(r.status, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
    }
    for (const argv of [
      ["task", "create", "--title", "Second", "--role", "engineer"],
      ["sync"],
      ["summon", "engineer", "--assistant", "claude", "--dry-run"],
    ]) {
      const r = asOther(argv);
      expect(r.status, `${argv.join(" ")} as uid ${OTHER}: ${r.stderr}`).toBe(0);
    }
    const again = asRoot(["sync"]);
    expect(again.status, again.stderr).toBe(0);
    expect(git(origin, "rev-parse", "refs/coordination/main")).toBe(git(dir, "rev-parse", "refs/coordination/main"));
    expect(octal(mode(join(dir, ".git", "pantheon")))).toBe("02775");
    expect(octal(mode(join(dir, ".git", "pantheon", "synced-tips.json")))).toBe("0664");
  });
});
