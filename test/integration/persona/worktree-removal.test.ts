import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonData, runBin } from "../../helpers/cli.js";
import { makeOriginAndClones } from "../../helpers/clones.js";
import { git, stateRef } from "../../helpers/repo.js";
import { repo, repoInParent, type Repo } from "./fixture.js";
import { configFile, missions, requireBundle, standIns, waitFor, type StandIns } from "./stand-ins.js";

/**
 * Issue 12 point 10 (code side): `mission end --remove-worktree` keeps a copy of an edited
 * copied file (ignored, so in no commit) and says where; run inside that worktree it refuses
 * before changing anything; a mission whose worktree git does not list in this clone is refused.
 * The loss rule itself: test/integration/store/worktree-losses.test.ts.
 */

async function setup(): Promise<{ p: Repo; s: StandIns }> {
  const { dir } = repoInParent();
  writeFileSync(join(dir, ".gitignore"), ".env.local\nconfig/\n");
  git(dir, "add", ".gitignore");
  git(dir, "commit", "-q", "-m", "ignore local files");
  writeFileSync(join(dir, ".env.local"), "TOKEN=main\n");
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "a.json"), "{}\n");
  writeFileSync(join(dir, "config", "b.json"), "{}\n");
  const p = repo(dir);
  await p.ok(["init", "--config", configFile(`project:\n  name: wt\nworktree:\n  copy: [".env.local", "config"]\n`)]);
  return { p, s: standIns() };
}

const branchExists = (dir: string, b: string) => git(dir, "branch", "--list", b).trim() !== "";

describe("mission end --remove-worktree", () => {
  beforeAll(requireBundle);

  it("keeps a copy of each edited copied file under <commondir>/pantheon/kept/<mission>/ and prints where; unedited copies are not kept", async () => {
    const { p, s } = await setup();
    await p.ok(["summon", "engineer", "--assistant", "claude", "--persona", "Hera", "--worktree"], s.env());
    const wt = s.one("claude").cwd;
    const [m] = await missions(p.dir);
    expect(readFileSync(join(wt, ".env.local"), "utf8")).toBe("TOKEN=main\n");
    writeFileSync(join(wt, ".env.local"), "TOKEN=persona\n");
    writeFileSync(join(wt, "config", "b.json"), '{"edited": true}\n');

    const r = await p.run(["mission", "end", m.id, "--remove-worktree"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(wt)).toBe(false);
    const kept = join(p.dir, ".git", "pantheon", "kept", m.handle.replace(":", "-"));
    expect(readFileSync(join(kept, ".env.local"), "utf8")).toBe("TOKEN=persona\n");
    expect(readFileSync(join(kept, "config", "b.json"), "utf8")).toBe('{"edited": true}\n');
    expect(existsSync(join(kept, "config", "a.json")), "an unedited copy is not kept").toBe(false);
    expect(r.stdout).toContain(
      `kept a copy of the edited .env.local (ignored, so in no commit): ${join(kept, ".env.local")}`,
    );
    expect(r.stdout).toContain(join(kept, "config", "b.json"));
    expect(readFileSync(join(p.dir, ".env.local"), "utf8"), "the main worktree's file is untouched").toBe(
      "TOKEN=main\n",
    );
  });

  it("--json lists the kept files and the deleted branch", async () => {
    const { p, s } = await setup();
    await p.ok(["summon", "engineer", "--assistant", "claude", "--worktree"], s.env());
    const wt = s.one("claude").cwd;
    const [m] = await missions(p.dir);
    writeFileSync(join(wt, ".env.local"), "TOKEN=persona\n");
    const data = await p.json(["mission", "end", m.id, "--remove-worktree"], "mission");
    expect(data.removedWorktree).toBe(wt);
    expect(data.deletedBranch).toBe(m.worktree.branch);
    expect(data.keptFiles).toEqual([
      { file: ".env.local", copy: join(p.dir, ".git", "pantheon", "kept", m.handle.replace(":", "-"), ".env.local") },
    ]);
  });

  it("run inside the worktree (the built bundle, cwd there): refused before anything changes, with the command to run instead; from the main worktree it works", async () => {
    const { p, s } = await setup();
    // The persona itself tries it while its mission is ACTIVE, then lists the active missions.
    const runs = [
      ["mission", "end", "--remove-worktree"],
      ["mission", "list", "--active", "--json"],
    ];
    await p.ok(
      ["summon", "engineer", "--assistant", "claude", "--persona", "Hera", "--worktree"],
      s.env({ STANDIN_RUN: JSON.stringify(runs) }),
    );
    const rec = s.one("claude");
    const wt = rec.cwd;
    const [end, active] = rec.runs;
    expect(end!.status, end!.stderr).toBe(1);
    expect(end!.stderr.split("\n")[0]).toBe(`✗ Not removing ${wt}: this command runs inside it`);
    expect(end!.stderr).toContain(`cd ${p.dir} && pantheon mission end MSN-0001 --remove-worktree`);
    expect(
      JSON.parse(active!.stdout).data.map((x: { id: string }) => x.id),
      "the mission was not ended by the refused command",
    ).toEqual(["MSN-0001"]);
    expect(existsSync(wt)).toBe(true);

    // The mission is ENDED now (summon ended it); the same from inside still changes nothing.
    const [m] = await missions(p.dir);
    const before = stateRef(p.dir);
    const inside = runBin(["mission", "end", m.id, "--remove-worktree"], { cwd: join(wt, ".pantheon") });
    expect(inside.exitCode, inside.stderr).toBe(1);
    expect(inside.stderr).toContain(`cd ${p.dir} && pantheon mission end`);
    expect(stateRef(p.dir)).toBe(before);
    expect(existsSync(wt)).toBe(true);
    expect(branchExists(p.dir, m.worktree.branch)).toBe(true);

    const outside = runBin(["mission", "end", m.id, "--remove-worktree"], { cwd: p.dir });
    expect(outside.exitCode, outside.stderr).toBe(0);
    expect(existsSync(wt)).toBe(false);
    expect(branchExists(p.dir, m.worktree.branch)).toBe(false);
  });

  it("a refusal (a commit kept nowhere else) on an ACTIVE mission leaves it ACTIVE and the ref unchanged", async () => {
    const { p, s } = await setup();
    const release = join(s.records, "release");
    // The assistant stays up until released: its mission is ACTIVE meanwhile.
    const summoning = p.run(
      ["summon", "engineer", "--assistant", "claude", "--persona", "Hera", "--worktree"],
      s.env({ STANDIN_WAIT_FILE: release }),
    );
    try {
      const rec = await waitFor("the stand-in to start", () => s.all()[0]);
      writeFileSync(join(rec.cwd, "work.txt"), "work\n");
      git(rec.cwd, "add", "work.txt");
      git(rec.cwd, "commit", "-q", "-m", "work");
      const before = stateRef(p.dir);
      const r = await p.run(["mission", "end", "MSN-0001", "--remove-worktree"]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^✗ Not removing .*1 commit\(s\) kept nowhere else, on pantheon\/hera-1/);
      expect(stateRef(p.dir), "the mission was not ended").toBe(before);
      expect((await missions(p.dir))[0].status).toBe("ACTIVE");
      expect(existsSync(rec.cwd)).toBe(true);
    } finally {
      writeFileSync(release, "");
      expect((await summoning).exitCode).toBe(0);
    }
  });

  it("a mission whose worktree git does not list in this clone (started in another clone) is refused; nothing changes", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [a, b] = clones as [NonNullable<(typeof clones)[0]>, NonNullable<(typeof clones)[1]>];
    const s = standIns();
    await a.ok(["summon", "engineer", "--assistant", "claude", "--persona", "Hera", "--worktree"], { env: s.env() });
    const wt = s.one("claude").cwd;
    await a.ok(["sync"]);
    await b.ok(["sync"]);
    const [m] = jsonData<any[]>(await b.ok(["mission", "list", "--json"]), "missions");
    const before = b.ref();
    const r = await b.run(["mission", "end", m.id, "--remove-worktree"]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      `✗ ${wt} is not a worktree of this clone (was MSN-0001 started in another one?)`,
    );
    expect(r.stderr).toContain("git worktree list");
    expect(b.ref()).toBe(before);
    expect(existsSync(wt), "clone A's worktree is untouched").toBe(true);
  });
});
