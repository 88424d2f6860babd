import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, onTestFinished, type TestContext } from "vitest";
import { jsonData, runBin, runCli, type CliResult } from "./cli.js";
import { git } from "./repo.js";

/**
 * A bare origin and n clones of it, all on real git with file-path remotes (DESIGN §3, issue 5):
 * what two personas on two machines have. Clone 0 pushes a first commit (so `main` exists
 * everywhere), runs `pantheon init --yes` and `pantheon sync` (which pushes the state); every other
 * clone then runs `pantheon sync` and adopts it.
 */

export const REF = "refs/coordination/main";

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
}

export interface Clone {
  index: number;
  dir: string;
  run(argv: string[], o?: RunOptions): Promise<CliResult>;
  /** Runs and requires exit 0 (the failure message shows stdout and stderr). */
  ok(argv: string[], o?: RunOptions): Promise<CliResult>;
  /** Runs with `--json`, requires exit 0 and the kind, returns `data`. */
  json<T = any>(argv: string[], kind: string, o?: RunOptions): Promise<T>;
  /** `git` in this clone (stdout). */
  git(...args: string[]): string;
  /** refs/coordination/main here, or null. */
  ref(): string | null;
  /** `git status --porcelain` right after set-up (init's own untracked files in clone 0). */
  baselineStatus: string;
  /** HEAD right after set-up. */
  baselineHead: string;
  /** Asserts the working tree, the index and HEAD are as set-up left them, plus `extra` lines. */
  expectUntouched(extra?: string[]): void;
  /** Takes the current status and HEAD as the baseline (after a test's own `init`, say). */
  markBaseline(): void;
}

export interface OriginAndClones {
  root: string;
  /** The bare repository (a file path, used as the clones' `origin` URL). */
  origin: string;
  clones: Clone[];
  /** refs/coordination/main on the origin, or null. */
  originRef(): string | null;
}

export interface CloneOptions {
  /** Run `pantheon init` in clone 0 and `pantheon sync` everywhere (default true). */
  init?: boolean;
  /** Run pantheon as real processes of the built bundle (default: in-process, faster). */
  bin?: boolean;
  /** Bind the clean-up to this test (needed under describe.concurrent; see integration/cli/fixture.ts). */
  ctx?: Pick<TestContext, "onTestFinished">;
  /**
   * Publishing of racing commands (DESIGN §3.5: claims, mission start/end, review decisions).
   * Off by default (`pantheon.autoSync false` in every clone): most sync tests make their changes
   * "offline" on purpose, to make syncs merge them; tests of publishing turn it on.
   */
  autoSync?: boolean;
  /** Make the clones blobless partial clones (`git clone --filter=blob:none file://origin`). */
  partial?: boolean;
}

function tempRoot(ctx?: Pick<TestContext, "onTestFinished">): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-clones-")));
  (ctx?.onTestFinished ?? onTestFinished)(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function refIn(dir: string): string | null {
  try {
    return git(dir, "rev-parse", "-q", "--verify", REF).trim();
  } catch {
    return null;
  }
}

function describeRun(argv: string[], dir: string, r: CliResult): string {
  return `pantheon ${argv.join(" ")} in ${dir} exited ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
}

/** A pantheon runner in `dir`: in-process (runCli) or the built bundle (runBin). */
export function cloneAt(dir: string, index: number, o: { bin?: boolean } = {}): Clone {
  const run = async (argv: string[], ro: RunOptions = {}): Promise<CliResult> =>
    o.bin
      ? runBin(argv, { cwd: dir, env: { NO_COLOR: "1", ...ro.env } })
      : runCli(argv, { cwd: dir, ...(ro.env && { env: ro.env }) });
  const ok = async (argv: string[], ro: RunOptions = {}) => {
    const r = await run(argv, ro);
    if (r.exitCode !== 0) throw new Error(describeRun(argv, dir, r));
    return r;
  };
  const clone: Clone = {
    index,
    dir,
    run,
    ok,
    json: async <T>(argv: string[], kind: string, ro: RunOptions = {}) =>
      jsonData<T>(await ok([...argv, "--json"], ro), kind),
    git: (...args: string[]) => git(dir, ...args),
    ref: () => refIn(dir),
    baselineStatus: "",
    baselineHead: "",
    expectUntouched(extra: string[] = []) {
      const lines = (s: string) => s.split("\n").filter(Boolean).sort();
      const status = git(dir, "status", "--porcelain", "--untracked-files=all");
      expect(lines(status), `git status --porcelain in clone ${index} (${dir})`).toEqual(
        [...lines(clone.baselineStatus), ...extra].sort(),
      );
      expect(git(dir, "rev-parse", "HEAD").trim(), `HEAD of clone ${index}`).toBe(clone.baselineHead);
      expect(git(dir, "diff", "--cached", "--name-only"), `index of clone ${index}`).toBe("");
    },
    markBaseline() {
      clone.baselineStatus = git(dir, "status", "--porcelain", "--untracked-files=all");
      clone.baselineHead = git(dir, "rev-parse", "HEAD").trim();
    },
  };
  return clone;
}

/**
 * `git init --bare` an origin, `git clone` it n times; clone 0 pushes a first commit and the
 * others pull it, so every clone has `main` tracking `origin/main`. With `init` (the default),
 * clone 0 runs `pantheon init --yes` then `pantheon sync`, and the others `pantheon sync`.
 */
export async function makeOriginAndClones(n: number, o: CloneOptions = {}): Promise<OriginAndClones> {
  const root = tempRoot(o.ctx);
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  const dirs: string[] = [];
  if (o.partial) git(origin, "config", "uploadpack.allowFilter", "true");
  for (let i = 0; i < n; i++) {
    const dir = join(root, `clone${i}`);
    if (o.partial) git(root, "clone", "-q", "--filter=blob:none", `file://${origin}`, dir);
    else git(root, "clone", "-q", origin, dir);
    dirs.push(dir);
  }
  git(dirs[0]!, "commit", "-q", "--allow-empty", "-m", "first commit");
  git(dirs[0]!, "push", "-q", "-u", "origin", "main");
  for (const dir of dirs.slice(1)) {
    git(dir, "pull", "-q", "origin", "main");
    git(dir, "branch", "-q", "--set-upstream-to=origin/main", "main");
  }
  if (o.autoSync !== true) for (const dir of dirs) git(dir, "config", "pantheon.autoSync", "false");
  const clones = dirs.map((dir, i) => cloneAt(dir, i, { bin: Boolean(o.bin) }));
  if (o.init !== false) {
    await clones[0]!.ok(["init", "--yes"]);
    await clones[0]!.ok(["sync"]);
    for (const c of clones.slice(1)) await c.ok(["sync"]);
  }
  for (const c of clones) c.markBaseline();
  return { root, origin, clones, originRef: () => refIn(origin) };
}

/** Syncs every clone in order, repeating rounds until all refs are equal (at most `rounds`). */
export async function syncUntilEqual(clones: Clone[], rounds = 3): Promise<number> {
  for (let round = 1; round <= rounds; round++) {
    for (const c of clones) await c.ok(["sync"]);
    const refs = new Set(clones.map((c) => c.ref()));
    if (refs.size === 1) return round;
  }
  throw new Error(
    `clones did not converge in ${rounds} rounds: ${clones.map((c) => `${c.index}=${c.ref()}`).join(" ")}`,
  );
}
