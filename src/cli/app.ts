import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { RepositoryError } from "../errors.js";
import { escapeText } from "../render/escape.js";
import { PLAIN, type Paint, type Style } from "../render/paint.js";
import type { Context, Publication } from "../services/kernel/context.js";
import type { Store } from "../store/store.js";
import type { IO } from "./io.js";
import type { View } from "./view.js";
import { processLauncher } from "./launcher.js";
import { terminalPrompter } from "./terminal-prompter.js";
import { lazyRequire } from "../lazy-require.js";
import { randomBytes, randomUid } from "../random-bytes.js";

export interface GlobalOptions {
  C?: string;
  as?: string;
  mission?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** A command's own `--force` (optsWithGlobals merges it in). */
  force?: boolean;
  /** False with --no-headers: tables without their header row. */
  headers?: boolean;
  offline?: boolean;
}

/** Finds templates/ beside the bundle (dist/) or the sources (src/cli/). */
function templatesDir(): string {
  // The bundle is CommonJS (run through a code cache); sources under vitest are ESM.
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (const rel of ["../templates", "../../templates"]) {
    const dir = resolve(here, rel);
    if (existsSync(`${dir}/themes`)) return dir;
  }
  return resolve(here, "../templates");
}

/** Per-invocation state shared by the commands: global flags, output style, the context. */
export class App {
  globals: GlobalOptions = {};
  result: View | undefined;
  /**
   * Whether opening the store first ends the missions started inside an assistant that is gone
   * (DESIGN §5: the next command of this clone does it). main.ts sets it per command.
   */
  endsGoneSessions = false;
  /**
   * Whether what this command changed reached the remote, for a command that publishes by
   * itself (DESIGN §3.5); one published:false among several changes (summon's mission and
   * claim) makes the whole false, with the first reason.
   */
  publication: Publication | undefined;
  private ctx: Context | undefined;
  private storePromise: Promise<Store> | undefined;

  constructor(
    readonly io: IO,
    readonly makeStore: (cwd: string, ctx: Context) => Promise<Store>,
  ) {}

  /** Reads the global flags from the command that runs (commander merges them up the tree). */
  configure(cmd: Command): void {
    this.globals = cmd.optsWithGlobals() as GlobalOptions;
  }

  get json(): boolean {
    return Boolean(this.globals.json);
  }

  colorEnabled(stream: { isTTY?: boolean }): boolean {
    const env = this.io.env;
    if (this.globals.color === false || this.json || ("NO_COLOR" in env && env.NO_COLOR !== "")) return false;
    if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
    return Boolean(stream.isTTY);
  }

  style(stream: { isTTY?: boolean; columns?: number } = this.io.stdout): Style {
    // picocolors probes process.stdout when loaded: only colour output loads it.
    const paint: Paint = this.colorEnabled(stream)
      ? (lazyRequire("picocolors") as typeof import("picocolors")).createColors(true)
      : PLAIN;
    const width = stream.columns ?? (Number(this.io.env.COLUMNS) || 100);
    return { paint, tty: Boolean(stream.isTTY), width, headers: this.globals.headers !== false };
  }

  warn(message: string): void {
    if (this.globals.quiet) return;
    const p = this.style(this.io.stderr).paint;
    // Warnings quote shared data (a stray entry's name is any bytes but NUL and "/"): C0 and C1
    // controls, bidi marks and line breaks are shown escaped, as errors are.
    this.io.stderr.write(`${p.yellow("!")} ${escapeText(message)}\n`);
  }

  /** The store, if this command opened one (the epilogue reads notices only then). */
  openedStore(): Promise<Store> | undefined {
    return this.storePromise;
  }

  /** Chatter lines under a first `!` line (a kept notice): stderr, silenced by -q. Callers escape record text (render/). */
  note(lines: readonly string[]): void {
    if (this.globals.quiet || lines.length === 0) return;
    const p = this.style(this.io.stderr).paint;
    this.io.stderr.write(
      `${p.yellow("!")} ${lines[0]!}\n${lines
        .slice(1)
        .map((l) => `  ${l}\n`)
        .join("")}`,
    );
  }

  private async endGoneSessions(ctx: Context, store: Store): Promise<Store> {
    if (!this.endsGoneSessions) return store;
    try {
      const { endGoneSessions } = await import("../services/missions/end-gone-sessions.js");
      await endGoneSessions(ctx, store);
    } catch {
      // never in the way of the command itself
    }
    return store;
  }

  cwd(): string {
    const dir = this.globals.C ? resolve(this.io.cwd, this.globals.C) : this.io.cwd;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new RepositoryError(
        "E_NOT_A_REPO",
        `Cannot change to ${dir}: no such directory`,
        "check the path given to -C",
      );
    }
    return dir;
  }

  context(): Context {
    if (this.ctx) return this.ctx;
    const cwd = this.cwd();
    const ctx: Context = {
      cwd,
      env: this.io.env,
      now: () => new Date(),
      ids: { uid: randomUid, noteId: () => randomBytes(6).toString("hex"), random: Math.random },
      warn: (m) => this.warn(m),
      published: (p) => {
        const was = this.publication;
        this.publication = !was || (was.published && !p.published) ? p : was;
      },
      store: () => (this.storePromise ??= this.makeStore(cwd, ctx).then((s) => this.endGoneSessions(ctx, s))),
      actorFlags: { as: this.globals.as, mission: this.globals.mission },
      force: Boolean(this.globals.force),
      templatesDir: templatesDir(),
      launcher: processLauncher(this.io.env),
      prompter: this.io.prompter ?? terminalPrompter(this.io),
      offline: Boolean(this.globals.offline),
      self: this.io.self,
    };
    this.ctx = ctx;
    return ctx;
  }
}
