/**
 * One offline world for a real assistant: a temporary HOME with the assistant's first-run screens
 * answered (onboarding, sign-in with a dummy key, folder trust), as a user who has used it once
 * has them (codex's trust can be left out: its first use in a repository); a git repository set up with the built `pantheon init --yes` (all four assistants'
 * files together); `pantheon` on PATH; the assistant pointed at the fake model server. Nothing
 * reaches the network and nothing outside the world's folder is written.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BIN } from "../helpers/cli.js";

export type AssistantName = "claude" | "opencode" | "codex" | "gemini";

/** A key that reaches only the fake server; no variable name of ours carries KEY (see adapter.ts). */
const CLAUDE_KEY = "sk-ant-pantheon-test-0123456789abcdefghij";
const FAKE_OPENAI_KEY_VAR = "PANTHEON_FAKE_OPENAI_KEY";

export interface World {
  root: string;
  home: string;
  repo: string;
  /** The environment every program in the world runs with. */
  env: Record<string, string>;
  /** What `pantheon init --yes` printed. */
  initOutput: string;
  /** Runs the built pantheon in the repository (as the Director), returning stdout. */
  pantheon(...args: string[]): string;
  /** The missions of the ref, as `mission list --json` shows them. */
  missions(): any[];
  task(id: string): any;
  /** Stops processes the assistant left behind in this world (codex's background server) and deletes it. */
  cleanup(): void;
}

export interface WorldOptions {
  assistant: AssistantName;
  binDir: string;
  modelUrl: string;
  /** Seed the assistant's first-run answers (false: its real first run, for gemini's sign-in). */
  seeded?: boolean;
  /**
   * Where the world's folder is made (default: the system temp folder). gemini refuses a
   * settings file below a folder others can write (/tmp), as a user's project never is.
   */
  parent?: string;
  /** Other assistants to set up in the same world (their keys, first-run answers, model server). */
  alsoFor?: AssistantName[];
  /** codex: seed a trust decision for the repository (default); false: codex has never seen it. */
  codexTrusted?: boolean;
  /**
   * Which file puts pantheon on the user's PATH: `.bash_profile` (default; a login shell reads
   * it) or `.bashrc` only (an interactive shell's, which codex's login shell does not read).
   */
  pathIn?: "bash_profile" | "bashrc";
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
}

export function makeWorld(o: WorldOptions): World {
  if (o.parent) mkdirSync(o.parent, { recursive: true, mode: 0o755 });
  const root = mkdtempSync(join(o.parent ?? tmpdir(), `pantheon-real-${o.assistant}-`));
  const home = join(root, "home");
  const repo = join(root, "repo");
  const bin = join(root, "bin");
  for (const d of [home, repo, bin, join(root, "tmp")]) mkdirSync(d, { recursive: true });
  // PANTHEON_REAL_BIN runs another build (an older one, to see a test fail without its fix).
  writeFileSync(
    join(bin, "pantheon"),
    `#!/bin/sh\nexec '${process.execPath}' '${process.env.PANTHEON_REAL_BIN ?? BIN}' "$@"\n`,
  );
  chmodSync(join(bin, "pantheon"), 0o755);
  git(root, "init", "-q", "-b", "main", repo);
  git(repo, "config", "user.name", "Test Director");
  git(repo, "config", "user.email", "director@example.com");
  git(repo, "commit", "-q", "--allow-empty", "-m", "initial");

  const env: Record<string, string> = {
    PATH: `${bin}:${o.binDir}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    // Keeps the programs' scratch files (claude-0/, codex-daemon-0/...) inside the world.
    TMPDIR: join(root, "tmp"),
    GIT_CONFIG_NOSYSTEM: "1",
    ...vendorEnv(o.assistant, o.modelUrl),
    ...Object.assign({}, ...(o.alsoFor ?? []).map((a) => vendorEnv(a, o.modelUrl))),
  };
  if (o.seeded !== false)
    for (const a of [o.assistant, ...(o.alsoFor ?? [])]) seedHome(a, home, repo, o.modelUrl, o.codexTrusted !== false);
  // codex runs tool commands in a login shell, which starts PATH again from /etc/profile: a
  // user's profile puts their tools back, as ours puts pantheon (or only .bashrc does, which a
  // login shell does not read).
  writeFileSync(join(home, `.${o.pathIn ?? "bash_profile"}`), `export PATH='${bin}':"$PATH"\n`);

  const pantheon = (...args: string[]) =>
    execFileSync(join(bin, "pantheon"), args, { cwd: repo, env, encoding: "utf8" });
  const initOutput = pantheon("init", "--yes");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "Set up Pantheon");
  return {
    root,
    home,
    repo,
    env,
    initOutput,
    pantheon,
    missions: () => JSON.parse(pantheon("mission", "list", "--json")).data,
    task: (id) => JSON.parse(pantheon("task", "show", id, "--json")).data,
    cleanup() {
      stopLeftovers(home);
      try {
        rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (e) {
        // A program still exiting may write into its HOME a moment longer: the folder is in tmp.
        console.warn(`could not remove ${root}: ${(e as Error).message}`);
      }
    },
  };
}

function vendorEnv(a: AssistantName, url: string): Record<string, string> {
  switch (a) {
    case "claude":
      return { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: CLAUDE_KEY };
    case "gemini":
      return { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: "pantheon-test-gemini" };
    case "codex":
      return { [FAKE_OPENAI_KEY_VAR]: "pantheon-test-openai" };
    case "opencode":
      // Offline: no models.dev catalogue download, no self-update.
      return { OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" };
  }
}

/** What a user who has run the assistant once (and trusted this folder) has in HOME. */
function seedHome(a: AssistantName, home: string, repo: string, url: string, codexTrusted: boolean): void {
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), text);
  };
  switch (a) {
    case "claude":
      write(
        ".claude.json",
        JSON.stringify({
          hasCompletedOnboarding: true,
          theme: "dark",
          numStartups: 3,
          // The answer to "Do you want to use this API key?" (claude keeps the last 20 characters).
          customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
          projects: { [repo]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
        }),
      );
      return;
    case "gemini":
      write(
        ".gemini/settings.json",
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
        }),
      );
      write(".gemini/trustedFolders.json", JSON.stringify({ [repo]: "TRUST_FOLDER" }));
      return;
    case "codex":
      write(
        ".codex/config.toml",
        [
          'model_provider = "pantheon-test"',
          "",
          "[model_providers.pantheon-test]",
          'name = "Pantheon test model"',
          `base_url = "${url}/v1"`,
          `env_key = "${FAKE_OPENAI_KEY_VAR}"`,
          'wire_api = "responses"',
          "",
          ...(codexTrusted ? [`[projects."${repo}"]`, 'trust_level = "trusted"', ""] : []),
        ].join("\n"),
      );
      return;
    case "opencode":
      write(
        ".config/opencode/opencode.json",
        JSON.stringify({
          $schema: "https://opencode.ai/config.json",
          model: "anthropic/claude-sonnet-4-5",
          autoupdate: false,
          share: "disabled",
          provider: { anthropic: { options: { baseURL: `${url}/v1`, apiKey: "pantheon-test-anthropic" } } },
        }),
      );
      return;
  }
}

/**
 * Processes this world started that outlive their terminal: codex's background server (0.157+
 * runs sessions in one that outlives the terminal), an assistant still writing its HOME. They are
 * found by the world's HOME in their environment, so no other process is ever touched.
 */
function stopLeftovers(home: string): void {
  const mine: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return; // no /proc: nothing to find this way
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`HOME=${home}`)) mine.push(pid);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  for (const pid of mine) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
