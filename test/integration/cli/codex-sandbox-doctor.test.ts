import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, tempDir } from "../../helpers/repo.js";
import { project } from "./fixture.js";

/**
 * DESIGN §5: codex keeps `.git` read-only in its sandbox, because the git dir's hooks and config
 * run code outside it at the Director's next git command. `doctor` names a codex configuration
 * that undoes that (W_CODEX_GIT_WRITABLE), with the writable roots Pantheon does need.
 */

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function findings(
  home: string,
  dir: string,
): Promise<Array<{ code: string; subject: string; message: string; fix: string }>> {
  const r = await project(dir).run(["doctor", "--json"], { env: { HOME: home } });
  expect(r.exitCode, r.stderr).toBe(0); // a warning: doctor still exits 0
  return JSON.parse(r.stdout).data.findings.filter((f: { code: string }) => f.code === "W_CODEX_GIT_WRITABLE");
}

describe("init: the writable roots a codex session the Director starts needs", () => {
  it("prints Pantheon's four folders of the common dir (made, so that codex's sandbox can start), never the common dir", async () => {
    const dir = makeRepo();
    const p = project(dir);
    const r = await p.ok(["init", "--yes"]);
    const git = join(dir, ".git");
    const ours = ["refs/coordination", "logs/refs/coordination", "objects", "pantheon"].map((d) => join(git, d));
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l.includes("~/.codex/config.toml"));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "  [sandbox_workspace_write]",
      `  writable_roots = [${ours.map((d) => JSON.stringify(d)).join(", ")}]`,
    ]);
    expect(r.stdout).not.toContain(`${JSON.stringify(git)}]`);
    for (const d of ours) expect(existsSync(d), d).toBe(true);
    expect((await p.json(["init", "--yes"], "init")).codexWritableRoots, "--json names them too").toEqual(ours);
  });
});

describe("doctor: a codex configuration that lets the model write the git dir", () => {
  it("names the common dir in writable_roots (what init printed before), a folder above the repository, and danger-full-access for the project; the fix gives Pantheon's own folders", async () => {
    const dir = makeRepo();
    const p = project(dir);
    const home = tempDir("pantheon-codex-home-");
    await p.ok(["init", "--yes"], { env: { HOME: home } });
    const git = join(dir, ".git");
    expect(await findings(home, dir), "nothing to say without a codex configuration").toEqual([]);

    write(
      join(home, ".codex", "config.toml"),
      [
        'model = "gpt-5"',
        "",
        "[sandbox_workspace_write]",
        `writable_roots = [ # as pantheon init printed it before`,
        `  ${JSON.stringify(git)},`,
        `  ${JSON.stringify(dirname(dir))}, ${JSON.stringify(join(git, "pantheon"))}, ${JSON.stringify(dir)}`,
        "]",
        "",
        `[projects.${JSON.stringify(dir)}]`,
        'trust_level = "trusted"',
        'sandbox_mode = "danger-full-access"',
        "",
        `[projects."/elsewhere"]`,
        'sandbox_mode = "danger-full-access"',
      ].join("\n"),
    );
    const found = await findings(home, dir);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringContaining(`lists ${JSON.stringify(git)} in writable_roots`),
      expect.stringContaining(`lists ${JSON.stringify(dirname(dir))} in writable_roots`),
      expect.stringContaining(`[projects.${dir}] sets sandbox_mode = "danger-full-access"`),
    ]);
    expect(found[0]!.message).toContain(`${join(git, "hooks")} and ${join(git, "config")}`);
    const ours = ["refs/coordination", "logs/refs/coordination", "objects", "pantheon"].map((d) =>
      JSON.stringify(join(git, d)),
    );
    expect(found[0]!.fix).toBe(
      `replace it with Pantheon's own folders: [sandbox_workspace_write] writable_roots = [${ours.join(", ")}]`,
    );
    expect(found[0]!.subject).toBe(join(home, ".codex", "config.toml"));

    // The project's own .codex/config.toml, with the inline form and a folder inside the git dir.
    write(join(home, ".codex", "config.toml"), 'model = "gpt-5"\n');
    write(
      join(dir, ".codex", "config.toml"),
      `sandbox_workspace_write = { writable_roots = [${JSON.stringify(join(git, "hooks"))}] }\nsandbox_mode = "danger-full-access"\n`,
    );
    expect((await findings(home, dir)).map((f) => [f.subject, f.message.split(":")[0]])).toEqual([
      [join(dir, ".codex", "config.toml"), expect.stringContaining(`lists ${JSON.stringify(join(git, "hooks"))}`)],
      [
        join(dir, ".codex", "config.toml"),
        `${join(dir, ".codex", "config.toml")} sets sandbox_mode = "danger-full-access"`,
      ],
    ]);

    // Pantheon's own folders (what init prints now) and the repository itself are fine.
    write(
      join(dir, ".codex", "config.toml"),
      `[sandbox_workspace_write]\nwritable_roots = [${[...ours, JSON.stringify(dir)].join(", ")}]\n`,
    );
    expect(await findings(home, dir)).toEqual([]);
  });
});
