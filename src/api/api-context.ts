import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { escapeInline } from "../domain/control-chars.js";
import { PantheonError, RepositoryError } from "../errors.js";
import { randomBytes, randomUid } from "../random-bytes.js";
import type { Context, Ids, Launcher, Publication } from "../services/kernel/context.js";

export type { Publication } from "../services/kernel/context.js";
import { GitStore } from "../store/git-store.js";
import { discoverRepo } from "../store/repo/repo.js";
import type { Store } from "../store/store.js";
import { findTemplatesDir } from "./templates-dir.js";

/** Who acts, per call (DESIGN §1.7): `mission` wins over `as`; without either, the handle's, then the environment's. */
export interface ActorOptions {
  /** `MSN-0003`, `3`, a codename or `MSN-0003:silent-phoenix`. */
  mission?: string | undefined;
  /** A persona name: its ACTIVE mission. */
  as?: string | undefined;
}

/** What every method takes besides its input. */
export interface CallOptions extends ActorOptions {
  /** Notices of this call (a stale id letter resolved, a task moved between epics). */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * The command's `--force`: act through a number that a sync gave to another record (DESIGN
   * §1.2), which a mutation otherwise refuses; on claim and review decisions it also lifts
   * their own guards, and on close and approve the unchecked acceptance criteria, as the flag does.
   */
  force?: boolean | undefined;
  /**
   * The CLI's `--offline`: no network call of its own. Without it, claims, mission start and
   * end and review decisions are made on the remote's latest state and published at once when
   * the clone's default remote has state (DESIGN §3.5).
   */
  offline?: boolean | undefined;
  /**
   * Told whether the change reached the remote, by the methods that publish by themselves
   * (claim, mission start and end, review decisions): `published` true, or false with the
   * reason (DESIGN §3.5). The CLI's `--json` carries the same at the envelope's top level.
   */
  onPublished?: ((p: Publication) => void) | undefined;
}

export interface PantheonOptions extends ActorOptions {
  /** A directory inside the repository or one of its worktrees (default: process.cwd()). */
  cwd?: string | undefined;
  /** The environment actors and git identity are read from (default: process.env). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Where notices go when a call gives none (default: stderr, as the CLI prints them). */
  onWarning?: ((message: string) => void) | undefined;
  /** `--offline` for every call (a call's own `offline` wins). */
  offline?: boolean | undefined;
  /**
   * Who acts when neither the call, the handle nor the environment names a mission or a persona:
   * by default the Director, or an unidentified persona when an assistant marker is set (DESIGN
   * §1.7). A program that a model drives passes `"unidentified"`, as `pantheon mcp` does: it may
   * then read and create, but holds none of the Director's owner rights.
   */
  unnamedActor?: "director" | "unidentified" | undefined;
}

/** Internal: what tests inject to compare the API with the CLI run for run. */
export interface ContextSeams {
  now?: () => Date;
  ids?: Ids;
}

/** The API starts no program: summon and worktree set-up commands are the CLI's. */
const startsNothing = () =>
  Promise.reject(
    new PantheonError("E_USAGE", "pantheon/api starts no programs", "run pantheon summon from a terminal"),
  );
const NO_LAUNCHER: Launcher = { which: () => null, run: startsNothing, session: startsNothing };

/**
 * One Context per call, as one CLI invocation has one: a fresh store, so a long-lived program
 * sees every other process's commits (the store reads the ref on each call; its read cache is
 * shared on disk).
 */
export class ContextFactory {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly templatesDir = findTemplatesDir();

  constructor(
    private readonly o: PantheonOptions,
    private readonly seams: ContextSeams = {},
  ) {
    const cwd = resolve(o.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory())
      throw new RepositoryError(
        "E_NOT_A_REPO",
        `Cannot open ${cwd}: no such directory`,
        "check the cwd given to openPantheon",
      );
    discoverRepo(cwd); // refuses now, as the CLI would, when there is no repository
    this.cwd = cwd;
    this.env = o.env ?? process.env;
  }

  for(call: CallOptions = {}): Context {
    const warn =
      call.onWarning ?? this.o.onWarning ?? ((m: string) => void process.stderr.write(`! ${escapeInline(m)}\n`));
    const actor = call.mission !== undefined || call.as !== undefined ? call : this.o;
    let store: Promise<Store> | undefined;
    const ctx: Context = {
      cwd: this.cwd,
      env: this.env,
      now: this.seams.now ?? (() => new Date()),
      ids: this.seams.ids ?? {
        uid: randomUid,
        noteId: () => randomBytes(6).toString("hex"),
        random: () => Math.random(),
      },
      warn,
      published: call.onPublished,
      store: () =>
        (store ??= Promise.resolve().then(
          () => new GitStore(discoverRepo(this.cwd), { env: this.env, now: () => ctx.now(), warn }),
        )),
      actorFlags: { as: actor.as, mission: actor.mission, unnamed: this.o.unnamedActor },
      templatesDir: this.templatesDir,
      launcher: NO_LAUNCHER,
      force: Boolean(call.force),
      offline: call.offline ?? this.o.offline ?? false,
    };
    return ctx;
  }
}
