import { codexSandboxOffline } from "../../assistants/codex.js";
import type { Store } from "../../store/store.js";

/** Random values, injected so tests can seed them. */
export interface Ids {
  /** A record uid: identity across renumbering at sync. */
  uid(): string;
  /** A note id: unique enough to union notes at a merge. */
  noteId(): string;
  /** A float in [0, 1). */
  random(): number;
}

/** How an assistant's session ended (Launcher.session). */
export interface SessionEnd {
  /** The assistant's exit code (128+n when signal n killed it). */
  code: number;
  /** The signal pantheon itself received and forwarded (terminal closed, kill), if any. */
  received: "SIGHUP" | "SIGTERM" | null;
}

/** Starting other programs (the assistants, a worktree's setup command). */
export interface Launcher {
  /** The program's path on PATH, or null when it is not installed. */
  which(binary: string): string | null;
  /** Runs a program with the terminal (stdio inherited); resolves to its exit code (128+n for signal n). */
  run(command: string, args: string[], o: { cwd: string; env: Record<string, string> }): Promise<number>;
  /**
   * Runs an assistant with the terminal, as `run` does, and survives the ways a session ends
   * around it: Ctrl-C belongs to the assistant; SIGHUP (terminal closed) and SIGTERM are
   * forwarded to it and escalated if it does not exit, so the caller can still end the mission.
   */
  session(command: string, args: string[], o: { cwd: string; env: Record<string, string> }): Promise<SessionEnd>;
}

/** A yes/no question for the Director, and what it is about (shown escaped, line by line). */
export interface Question {
  message: string;
  detail?: string[];
}

/**
 * Questions to the Director at a terminal. The CLI provides one (services never load a prompt
 * library); tests pass a fake that answers from a list.
 */
export interface Prompter {
  /** A person can answer: stdin and stdout are terminals and no assistant or CI marker is set. */
  readonly interactive: boolean;
  /** Asks; false when nobody can answer; CancelledError on Ctrl-C. Record text in it is escaped on display. */
  confirm(q: Question): Promise<boolean>;
}

/**
 * Whether a command that publishes by itself (DESIGN §3.5) got its change onto the remote:
 * `published` true, or false with the reason in words. `--json` carries it at the top of the
 * envelope, the MCP result says it, summon's brief tells the persona.
 */
export interface Publication {
  published: boolean;
  /** The remote it was (or would have been) published to; null when the clone has none. */
  remote: string | null;
  /** Why not, when not published: "the 3 min publishing budget ran out after 4 attempts; origin moved 3 times meanwhile". */
  reason: string | null;
  /**
   * Not published because this clone publishes nothing by itself (no remote, one it never synced
   * with, `pantheon.autoSync false`): nothing to catch up on, so nobody is told to sync.
   */
  off?: boolean;
}

/** Who acts when no mission and no persona is named (DESIGN §1.7). */
export type UnnamedActor = "director" | "unidentified";

/**
 * Everything a service may depend on besides its input (STYLE rule 7: inject what varies). `S` is
 * the part of the store port the service uses (store/port/): the whole Store by default, narrower
 * where a service's unit test gives it an in-memory store (`Context<RecordStore>`), `unknown` where
 * a helper never opens the store.
 */
export interface Context<S = Store> {
  /** The directory commands run in (`-C` applied). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  now(): Date;
  ids: Ids;
  /** Chatter for stderr: warnings and notices, never results. */
  warn(message: string): void;
  /** Told, by each mutation that publishes by itself, whether it was published (DESIGN §3.5). */
  published?: ((p: Publication) => void) | undefined;
  /** The repository's store, discovered on first use. */
  store(): Promise<S>;
  /**
   * `--as` and `--mission` from the command line (DESIGN §1.7), and who acts when nothing names
   * a persona: by default the Director, or an unidentified persona when an assistant marker is
   * set; `pantheon mcp` says "unidentified" (a model drives it, whatever its environment
   * carries) unless the Director chose `--director`.
   */
  actorFlags: { as?: string | undefined; mission?: string | undefined; unnamed?: UnnamedActor | undefined };
  /**
   * The command's `--force`: a mutation may act through a number that a sync gave to another
   * record (DESIGN §1.2). Commands pass their other uses of --force in their input.
   */
  force?: boolean | undefined;
  /** The folder holding `templates/` (themes, personas, commands). */
  templatesDir: string;
  launcher: Launcher;
  /** Absent where nobody can be asked (the programmatic interface): as if not interactive. */
  prompter?: Prompter;
  /**
   * How to run this very Pantheon (the node binary and the script), for the programs summon
   * starts; absent where there is none to run (the programmatic interface).
   */
  self?: readonly string[] | undefined;
  /** `--offline`: no automatic network call (publishing, first use; DESIGN §3.5). `sync` still runs. */
  offline?: boolean | undefined;
}

/**
 * Why this command may make no network call of its own accord (DESIGN §3.5), or null: the
 * `--offline` flag, or a sandbox without network (codex sets CODEX_SANDBOX_NETWORK_DISABLED=1),
 * where a fetch would only wait for its timeout.
 */
export function networkOff(ctx: Context<unknown>): string | null {
  if (ctx.offline) return "--offline";
  if (codexSandboxOffline(ctx.env)) return "no network in this sandbox";
  return null;
}

export function isoNow(ctx: Context<unknown>): string {
  return ctx.now().toISOString();
}
