/**
 * The MCP configuration `pantheon init --mcp` writes is accepted by each real assistant, offline
 * (issue 18): each program lists the server from the project file, and claude, gemini and
 * opencode start it (`pantheon mcp` of this build, through a `pantheon` on PATH) and report it
 * connected. A project file counts once the user has approved it (claude) or trusted the folder
 * (gemini, codex): the sandbox's HOME says so, as the user would in the program's screen.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, run, tail, type Sandbox } from "./sandbox.js";
import { binDirOf } from "./installs.js";

const BIN = resolve(__dirname, "../../dist/pantheon.js");

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const s of sandboxes) s.cleanup();
});

/** A sandbox whose repository ran `pantheon init --yes --mcp --assistant <name>`, with `pantheon` on PATH. */
function initialised(assistant: string): { s: Sandbox; shims: string; stdout: string } {
  const s = makeSandbox();
  sandboxes.push(s);
  const shims = join(s.root, "shims");
  mkdirSync(shims);
  writeFileSync(
    join(shims, "pantheon"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(join(shims, "pantheon"), 0o755);
  const env = {
    ...s.env(shims),
    GIT_AUTHOR_NAME: "Director",
    GIT_AUTHOR_EMAIL: "d@example.com",
    GIT_COMMITTER_NAME: "Director",
    GIT_COMMITTER_EMAIL: "d@example.com",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "initial"], { cwd: s.repo, env });
  const stdout = execFileSync(join(shims, "pantheon"), ["init", "--yes", "--mcp", "--assistant", assistant], {
    cwd: s.repo,
    env,
    encoding: "utf8",
  });
  return { s, shims, stdout };
}

describe("init --mcp, read by the real assistants", () => {
  it("claude: .mcp.json is listed as a project server, and once approved pantheon mcp connects", async (ctx) => {
    const bin = binDirOf(ctx, "claude");
    const { s, shims } = initialised("claude");
    const env = s.env(`${shims}:${bin}`);
    const pending = await run("claude", ["mcp", "get", "pantheon"], { cwd: s.repo, env, timeoutSec: 60 });
    expect(pending.out, tail(pending)).toMatch(/Scope: Project config \(shared via \.mcp\.json\)/);
    mkdirSync(join(s.repo, ".claude"), { recursive: true });
    writeFileSync(join(s.repo, ".claude/settings.local.json"), JSON.stringify({ enabledMcpjsonServers: ["pantheon"] }));
    const r = await run("claude", ["mcp", "list"], { cwd: s.repo, env, timeoutSec: 60 });
    expect(r.out, tail(r)).toMatch(/pantheon: pantheon mcp - . Connected/);
  });

  it("gemini: .gemini/settings.json's server connects in a trusted folder", async (ctx) => {
    const bin = binDirOf(ctx, "gemini");
    const { s, shims } = initialised("gemini");
    mkdirSync(join(s.home, ".gemini"), { recursive: true });
    writeFileSync(join(s.home, ".gemini/trustedFolders.json"), JSON.stringify({ [s.repo]: "TRUST_FOLDER" }));
    const r = await run("gemini", ["mcp", "list"], { cwd: s.repo, env: s.env(`${shims}:${bin}`), timeoutSec: 60 });
    expect(r.out, tail(r)).toMatch(/pantheon: pantheon mcp \(stdio\) - Connected/);
  });

  it("opencode: opencode.json's server connects", async (ctx) => {
    const bin = binDirOf(ctx, "opencode");
    const { s, shims } = initialised("opencode");
    const r = await run("opencode", ["mcp", "list"], { cwd: s.repo, env: s.env(`${shims}:${bin}`), timeoutSec: 60 });
    expect(r.out.replace(/\u001b\[[0-9;]*m/g, ""), tail(r)).toMatch(/pantheon\s+connected/);
  });

  it("codex: .codex/config.toml is read in a trusted project, and the printed lines work in ~/.codex/config.toml", async (ctx) => {
    const bin = binDirOf(ctx, "codex");
    const { s, shims, stdout } = initialised("codex");
    const env = s.env(`${shims}:${bin}`);
    mkdirSync(join(s.home, ".codex"), { recursive: true });
    writeFileSync(
      join(s.home, ".codex/config.toml"),
      `[projects.${JSON.stringify(s.repo)}]\ntrust_level = "trusted"\n`,
    );
    const r = await run("codex", ["mcp", "list"], { cwd: s.repo, env, timeoutSec: 60 });
    expect(r.out, tail(r)).toMatch(/^pantheon\s+pantheon\s+mcp\s+.*enabled/m);
    // The lines init printed for the user's global file, in an untrusted project.
    const lines = stdout
      .split("\n")
      .filter((l) => /^ {6}\S/.test(l))
      .map((l) => l.slice(6))
      .join("\n");
    expect(lines).toBe(readFileSync(join(s.repo, ".codex/config.toml"), "utf8").trimEnd());
    writeFileSync(join(s.home, ".codex/config.toml"), `${lines}\n`);
    const other = join(s.root, "elsewhere");
    mkdirSync(other);
    const g = await run("codex", ["mcp", "list"], { cwd: other, env, timeoutSec: 60 });
    expect(g.out, tail(g)).toMatch(/^pantheon\s+pantheon\s+mcp\s+.*enabled/m);
  });
});
