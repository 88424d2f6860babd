/**
 * Checks, offline, that the real assistants accept the argv our adapters build and discover the
 * command files we install, by the recipes of ASSISTANTS.md. scripts/check-assistants.mjs
 * installs the pinned versions first; a package the registry did not deliver is a visible skip,
 * a program that installed and then rejects our argv or files is a failure.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it, type TestContext } from "vitest";
import type { AssistantAdapter, LaunchInput } from "../../src/assistants/adapter.js";
import { claudeAdapter } from "../../src/assistants/claude.js";
import { codexAdapter } from "../../src/assistants/codex.js";
import { geminiAdapter } from "../../src/assistants/gemini.js";
import { opencodeAdapter } from "../../src/assistants/opencode.js";
import { renderTemplate } from "../../src/assistants/render-template.js";
import { makeSandbox, run, tail, type Sandbox } from "./harness.js";

interface InstallResult {
  name: string;
  pkg: string;
  version: string;
  bin: string;
  ok: boolean;
  binDir?: string;
  reason?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    assistantInstalls: Record<string, InstallResult>;
  }
}

const HANDLE = "MSN-0003:silent-phoenix";
// The real engineer template, rendered: long, with quotes, backticks, arrows and newlines.
const PERSONA = renderTemplate(readFileSync(join(__dirname, "../../templates/personas/engineer.md"), "utf8"), {
  persona: "Hephaestus",
  role: "engineer",
  "project.name": "shop",
  "project.description": 'An online shop ("demo").',
  "mission.id": "MSN-0003",
  "mission.handle": HANDLE,
});
const KICKOFF = `You are Hephaestus on mission ${HANDLE}. Run \`pantheon task next --mission ${HANDLE}\` and propose what to do.`;

/** The assistant's bin folder, or a visible skip with the reason the package is missing. */
function binDirOf(ctx: TestContext, name: string): string {
  const r = inject("assistantInstalls")[name];
  if (!r?.ok || !r.binDir) return ctx.skip(`${r?.pkg ?? name}@${r?.version ?? "?"} not installed: ${r?.reason ?? "no install result"}`);
  return r.binDir;
}

function suite(adapter: AssistantAdapter, body: (s: () => Sandbox, launch: (over?: Partial<LaunchInput>) => ReturnType<AssistantAdapter["launch"]>) => void) {
  describe(adapter.name, () => {
    let sandbox: Sandbox | undefined;
    const s = () => {
      if (!sandbox) {
        sandbox = makeSandbox();
        sandbox.install(adapter.commandFiles({ cli: "pantheon" }));
        writeFileSync(join(sandbox.root, "persona.md"), PERSONA);
      }
      return sandbox;
    };
    const launch = (over: Partial<LaunchInput> = {}) =>
      adapter.launch({
        projectDir: s().repo,
        personaFile: join(s().root, "persona.md"),
        personaText: PERSONA,
        kickoff: KICKOFF,
        role: "engineer",
        missionHandle: HANDLE,
        sessionId: randomUUID(),
        ...over,
      });
    afterAll(() => sandbox?.cleanup());

    it("runs the pinned version", async (ctx) => {
      const bin = binDirOf(ctx, adapter.name);
      const r = await run(adapter.binary, ["--version"], { cwd: s().repo, env: s().env(bin), timeoutSec: 30 });
      const pinned = inject("assistantInstalls")[adapter.name]!.version;
      expect(r.rc, tail(r)).toBe(0);
      expect(r.out).toContain(pinned);
    });

    body(s, launch);
  });
}

suite(claudeAdapter, (s, launch) => {
  it.for([undefined, "sonnet"])("accepts the summon argv (model %s): stops at login, not at parsing", async (model, ctx) => {
    const bin = binDirOf(ctx, "claude");
    const l = launch(model ? { model } : {});
    const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.out, tail(r)).not.toMatch(/unknown option|Invalid session ID|file not found|Cannot use both/i);
    expect(r.out, tail(r)).toContain("Not logged in");
    expect(r.rc, tail(r)).toBe(1);
  });

  it("starts a session, not the subcommand, for a one-word kickoff such as `doctor`", async (ctx) => {
    const bin = binDirOf(ctx, "claude");
    const l = launch({ kickoff: "doctor" });
    const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.out, tail(r)).toContain("Not logged in");
  });

  it("discovers /summon, /dismiss and /pantheon-help (init.slash_commands)", async (ctx) => {
    const bin = binDirOf(ctx, "claude");
    const args = ["-p", "--output-format", "stream-json", "--verbose", "/summon engineer"];
    const env = s().env(bin, { ANTHROPIC_API_KEY: "dummy" });
    const r = await run("claude", args, { cwd: s().repo, env, timeoutSec: 45, stopWhenLine: /"slash_commands"/ });
    const line = r.stdout.split("\n").find((l) => l.includes('"slash_commands"'));
    expect(line, tail(r)).toBeDefined();
    const init = JSON.parse(line!) as { slash_commands: string[] };
    expect(init.slash_commands).toEqual(expect.arrayContaining(["summon", "dismiss", "pantheon-help"]));
  });
});

suite(opencodeAdapter, (s, launch) => {
  it.for([undefined, "anthropic/claude-sonnet-4-5"])("accepts the summon argv (model %s): still running after 8 s", async (model, ctx) => {
    const bin = binDirOf(ctx, "opencode");
    const l = launch(model ? { model } : {});
    const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 8 });
    expect(r.out, tail(r)).not.toMatch(/Failed to change directory|Usage:|Unknown argument/);
    expect(r.rc, tail(r)).toBe(124);
  });

  it("defines the pantheon-engineer agent with the persona as its prompt (debug agent)", async (ctx) => {
    const bin = binDirOf(ctx, "opencode");
    const l = launch();
    const r = await run("opencode", ["debug", "agent", "pantheon-engineer"], { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(0);
    const agent = JSON.parse(r.stdout) as { name: string; mode: string; prompt: string };
    expect(agent).toMatchObject({ name: "pantheon-engineer", mode: "primary" });
    expect(agent.prompt).toBe(PERSONA);
  });

  it("discovers the three commands with their descriptions (debug config)", async (ctx) => {
    const bin = binDirOf(ctx, "opencode");
    const r = await run("opencode", ["debug", "config"], { cwd: s().repo, env: s().env(bin), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(0);
    const config = JSON.parse(r.stdout) as { command?: Record<string, { description?: string; template?: string }> };
    for (const f of opencodeAdapter.commandFiles({ cli: "pantheon" })) {
      const name = /commands\/(.+)\.md$/.exec(f.path)![1]!;
      expect(config.command?.[name], `command ${name}`).toBeDefined();
      expect(f.content).toContain(JSON.stringify(config.command![name]!.description));
      expect(config.command![name]!.template?.length ?? 0).toBeGreaterThan(100);
    }
  });
});

/** `codex debug prompt-input` takes the same options as codex, except -C (cd instead) and -m. */
function promptInputArgs(args: string[], repo: string): string[] {
  const out = ["debug", "prompt-input"];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-C") {
      expect(args[i + 1]).toBe(repo);
      i++;
    } else if (args[i] === "-m") out.push("-c", `model=${JSON.stringify(args[++i])}`);
    else out.push(args[i]!);
  }
  return out;
}

interface PromptItem {
  type: string;
  role?: string;
  content?: { type: string; text?: string }[];
}

suite(codexAdapter, (s, launch) => {
  /** A model codex knows offline: its bundled catalog's first entry. */
  async function catalogModel(bin: string): Promise<string> {
    const r = await run("codex", ["debug", "models"], { cwd: s().repo, env: s().env(bin), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(0);
    return (JSON.parse(r.stdout) as { models: { slug: string }[] }).models[0]!.slug;
  }

  it.for([false, true])("takes the persona as a developer message and keeps its base prompt (with model: %s)", async (withModel, ctx) => {
    const bin = binDirOf(ctx, "codex");
    const l = launch(withModel ? { model: await catalogModel(bin) } : {});
    const r = await run("codex", promptInputArgs(l.args, s().repo), { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.out, tail(r)).not.toMatch(/unexpected argument|^Error:/m);
    expect(r.rc, tail(r)).toBe(0);
    const items = JSON.parse(r.stdout) as PromptItem[];
    const texts = (role: string) => items.filter((i) => i.role === role).flatMap((i) => (i.content ?? []).map((c) => c.text ?? ""));
    expect(texts("developer")).toContain(PERSONA);
    expect(texts("user")).toContain(KICKOFF);
    expect(r.stdout).toContain("You are Codex");
  });

  it("parses the summon argv itself (stops at the terminal check, not at clap)", async (ctx) => {
    const bin = binDirOf(ctx, "codex");
    for (const l of [launch(), launch({ model: "gpt-5.5" })]) {
      const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
      expect(r.out, tail(r)).not.toMatch(/unexpected argument/);
      expect(r.out, tail(r)).toContain("Refusing to start the interactive TUI");
    }
  });

  it("discovers the $summon, $dismiss and $pantheon-help skills", async (ctx) => {
    const bin = binDirOf(ctx, "codex");
    const r = await run("codex", ["debug", "prompt-input"], { cwd: s().repo, env: s().env(bin), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(0);
    const prompt = (JSON.parse(r.stdout) as PromptItem[]).flatMap((i) => (i.content ?? []).map((c) => c.text ?? "")).join("\n");
    for (const f of codexAdapter.commandFiles({ cli: "pantheon" })) {
      const name = /skills\/(.+)\/SKILL\.md$/.exec(f.path)![1]!;
      const description = /^description: (".*")$/m.exec(f.content)![1]!;
      expect(prompt).toContain(`${name}: ${JSON.parse(description) as string} (file: `);
    }
  });
});

suite(geminiAdapter, (s, launch) => {
  it.for([undefined, "gemini-2.5-pro"])("accepts the summon argv (model %s): -i parsed, refused only for piped stdin", async (model, ctx) => {
    const bin = binDirOf(ctx, "gemini");
    const l = launch(model ? { model } : {});
    const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.out, tail(r)).not.toMatch(/Unknown arguments?|Not enough arguments/);
    expect(r.out, tail(r)).toContain("--prompt-interactive flag cannot be used when input is piped");
    expect(r.rc, tail(r)).toBe(42);
  });

  it("accepts a persona that starts with --- frontmatter", async (ctx) => {
    const bin = binDirOf(ctx, "gemini");
    const l = launch({ personaText: `---\nname: custom\n---\n${PERSONA}` });
    const r = await run(l.command, l.args, { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(42);
  });

  it("accepts -m on its own (stops at authentication)", async (ctx) => {
    const bin = binDirOf(ctx, "gemini");
    const l = launch({ model: "gemini-2.5-pro" });
    const r = await run(l.command, l.args.slice(0, 2), { cwd: s().repo, env: s().env(bin, l.env), timeoutSec: 30 });
    expect(r.rc, tail(r)).toBe(41);
  });

  it("loads the three TOML commands without [FileCommandLoader] errors (a broken control file has one)", async (ctx) => {
    const bin = binDirOf(ctx, "gemini");
    // The control proves the loader read this folder during the run, so silence about ours means
    // they parsed, rather than that nothing was looked at.
    s().install([{ path: ".gemini/commands/zz-pantheon-control.toml", content: 'prompt = """never closed\n' }]);
    const env = s().env(bin, { GEMINI_API_KEY: "dummy" });
    const r = await run("gemini", ["--skip-trust", "-o", "stream-json", "-p", "/summon engineer"], { cwd: s().repo, env, timeoutSec: 20 });
    const loaderLines = r.stderr.split("\n").filter((l) => l.includes("[FileCommandLoader]"));
    expect(loaderLines.some((l) => l.includes("zz-pantheon-control.toml")), tail(r, 40)).toBe(true);
    for (const line of loaderLines) expect(line).toContain("zz-pantheon-control.toml");
  });
});
