/**
 * `init --mcp` (issue 18): `pantheon mcp` registered in the project file each assistant reads,
 * merged into a user's file only when the rewrite changes nothing else, never overwriting a
 * user's own entry, and never writing a path of this machine into a file that gets committed.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonData, runCli } from "../../helpers/cli.js";
import { makeRepo } from "../../helpers/repo.js";

/** No `pantheon` on this PATH: the command written must still be the bare name. */
const ENV = { PATH: "/usr/bin:/bin" };
const FILES = [".mcp.json", ".gemini/settings.json", "opencode.json", ".codex/config.toml"];

const read = (dir: string, f: string) => readFileSync(join(dir, f), "utf8");

describe("init --mcp", () => {
  it("writes each assistant's project MCP file with `pantheon mcp`, and says to commit them", async () => {
    const dir = makeRepo();
    const r = await runCli(["init", "--yes", "--mcp"], { cwd: dir, env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(read(dir, ".mcp.json"))).toEqual({
      mcpServers: { pantheon: { command: "pantheon", args: ["mcp"] } },
    });
    expect(JSON.parse(read(dir, ".gemini/settings.json"))).toEqual({
      mcpServers: { pantheon: { command: "pantheon", args: ["mcp"] } },
    });
    expect(JSON.parse(read(dir, "opencode.json"))).toEqual({
      $schema: "https://opencode.ai/config.json",
      mcp: { pantheon: { type: "local", command: ["pantheon", "mcp"], enabled: true } },
    });
    expect(read(dir, ".codex/config.toml")).toBe('[mcp_servers.pantheon]\ncommand = "pantheon"\nargs = ["mcp"]\n');
    for (const f of FILES) expect(read(dir, f), f).not.toMatch(/\/(usr|home|tmp|root|work)\b|node_modules/);
    // The Director's own choice (DESIGN §1.7): init never gives the assistants his rights.
    for (const f of FILES) expect(read(dir, f), f).not.toContain("--director");
    expect(r.stdout).toMatch(
      /^ {2}mcp {5}claude \.mcp\.json \(created\), opencode opencode\.json \(created\), codex \.codex\/config\.toml \(created\), gemini \.gemini\/settings\.json \(created\)$/m,
    );
    expect(r.stdout).toMatch(
      /codex: codex reads \.codex\/config\.toml only in a project you trust; or add the same lines to ~\/\.codex\/config\.toml/,
    );
    expect(r.stdout).toMatch(
      /git add .*\.mcp\.json.*\.gemini.*opencode\.json.*\.codex|git add (?=.*\.mcp\.json)(?=.*\.gemini)(?=.*opencode\.json)(?=.*\.codex)/,
    );
    expect(r.stderr).toMatch(
      /pantheon is not on PATH: the assistants will run `pantheon mcp`; put it there from Pantheon's own clone: npm ci && npm install -g --ignore-scripts \. \(see its README\)/,
    );
    expect(r.stderr).not.toMatch(/install -g pantheon/); // the registry's `pantheon` is someone else's

    // Run again: everything is there already, and nothing is rewritten.
    const before = FILES.map((f) => read(dir, f));
    const again = jsonData<{ mcp: Array<{ action: string }> }>(
      await runCli(["init", "--mcp", "--json"], { cwd: dir, env: ENV }),
    );
    expect(again.mcp.map((m) => m.action)).toEqual(["existing", "existing", "existing", "existing"]);
    expect(FILES.map((f) => read(dir, f))).toEqual(before);
  });

  it("merges into a user's file only when rewriting it changes nothing else", async () => {
    const dir = makeRepo();
    const claude = `${JSON.stringify({ mcpServers: { docs: { command: "docs-mcp" } }, other: [1, 2] }, null, 2)}\n`;
    const gemini = JSON.stringify({ theme: "dark", mcpServers: {} }, null, 4);
    const opencode = '{\n  // my models\n  "model": "x/y"\n}\n';
    const codex = 'model = "o3"\n';
    mkdirSync(join(dir, ".gemini"));
    mkdirSync(join(dir, ".codex"));
    writeFileSync(join(dir, ".mcp.json"), claude);
    writeFileSync(join(dir, ".gemini/settings.json"), gemini);
    writeFileSync(join(dir, "opencode.json"), opencode);
    writeFileSync(join(dir, ".codex/config.toml"), codex);
    const r = await runCli(["init", "--yes", "--mcp", "--json"], { cwd: dir, env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    const mcp = jsonData<{ mcp: Array<{ assistant: string; action: string; add: string | null }> }>(r).mcp;
    expect(Object.fromEntries(mcp.map((m) => [m.assistant, m.action]))).toEqual({
      claude: "updated",
      gemini: "updated",
      opencode: "manual",
      codex: "manual",
    });
    // Merged: the user's keys, order and indentation kept, ours added.
    expect(read(dir, ".mcp.json")).toBe(
      `${JSON.stringify({ mcpServers: { docs: { command: "docs-mcp" }, pantheon: { command: "pantheon", args: ["mcp"] } }, other: [1, 2] }, null, 2)}\n`,
    );
    expect(read(dir, ".gemini/settings.json")).toBe(
      `${JSON.stringify({ theme: "dark", mcpServers: { pantheon: { command: "pantheon", args: ["mcp"] } } }, null, 4)}\n`,
    );
    // Not merged (comments; a TOML file): untouched, and what to add is printed.
    expect(read(dir, "opencode.json")).toBe(opencode);
    expect(read(dir, ".codex/config.toml")).toBe(codex);
    expect(JSON.parse(mcp.find((m) => m.assistant === "opencode")!.add!)).toEqual({
      mcp: { pantheon: { type: "local", command: ["pantheon", "mcp"], enabled: true } },
    });
    expect(mcp.find((m) => m.assistant === "codex")!.add).toBe(
      '[mcp_servers.pantheon]\ncommand = "pantheon"\nargs = ["mcp"]\n',
    );
    const text = await runCli(["init", "--mcp", "--assistant", "opencode"], { cwd: dir, env: ENV });
    expect(text.stdout).toMatch(
      /opencode: opencode\.json is not plain JSON \(comments\?\); merge this in by hand\n {6}\{\n {8}"mcp": \{/,
    );
  });

  it("never replaces a user's own pantheon entry, and a hand-formatted file is left for the user", async () => {
    const dir = makeRepo();
    const mine = '{"mcpServers":{"pantheon":{"command":"/opt/pantheon/bin/pantheon","args":["mcp","-q"]}}}\n';
    const compact = '{ "mcpServers": { } }\n';
    writeFileSync(join(dir, ".mcp.json"), mine);
    mkdirSync(join(dir, ".gemini"));
    writeFileSync(join(dir, ".gemini/settings.json"), compact);
    const r = await runCli(["init", "--yes", "--mcp", "--assistant", "claude", "--assistant", "gemini", "--json"], {
      cwd: dir,
      env: ENV,
    });
    expect(jsonData<{ mcp: Array<{ action: string }> }>(r).mcp.map((m) => m.action)).toEqual(["kept", "manual"]);
    expect(read(dir, ".mcp.json")).toBe(mine);
    expect(read(dir, ".gemini/settings.json")).toBe(compact);
  });

  it("uses `npx --no-install pantheon` where pantheon is only the project's dependency, and nothing without --mcp", async () => {
    const dir = makeRepo();
    mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules/.bin/pantheon"), "#!/bin/sh\n");
    chmodSync(join(dir, "node_modules/.bin/pantheon"), 0o755);
    const plain = jsonData<{ mcp: unknown[] }>(await runCli(["init", "--yes", "--json"], { cwd: dir, env: ENV }));
    expect(plain.mcp).toEqual([]);
    const r = await runCli(["init", "--mcp", "--assistant", "claude"], { cwd: dir, env: ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(read(dir, ".mcp.json")).mcpServers.pantheon).toEqual({
      command: "npx",
      args: ["--no-install", "pantheon", "mcp"],
    });
    expect(r.stderr).not.toMatch(/not on PATH/);
  });
});
