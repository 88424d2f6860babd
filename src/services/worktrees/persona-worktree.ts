import {
  constants,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ASSISTANTS } from "../../assistants/registry.js";
import { ConflictError, UsageError } from "../../errors.js";
import { missionId } from "../../domain/ids.js";
import { isBranchName } from "../../domain/record-formats.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Store } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { findMission, resolveActor } from "../kernel/resolve-actor.js";
import { runWorktreeSetup } from "./worktree-setup.js";

/**
 * Files Pantheon installs that a persona's worktree needs even when they are not committed: its
 * own, then each assistant's (its adapter's `projectPaths`).
 */
export const PANTHEON_FILES = [".pantheon", "AGENTS.md", ...ASSISTANTS.flatMap((a) => a.projectPaths)];

export function defaultBranch(m: Pick<Mission, "persona" | "number">): string {
  return `pantheon/${
    m.persona
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "persona"
  }-${m.number}`;
}

export function checkBranchName(branch: string): string {
  // The mission record keeps it, and its schema holds it to the same rule (a git argument).
  if (!isBranchName(branch)) {
    throw new UsageError(
      `Invalid branch name "${branch}"`,
      "use letters, digits, / - _ . (e.g. pantheon/hephaestus-3)",
    );
  }
  return branch;
}

/**
 * The paths copied into a persona's worktree: Pantheon's own files, then the project's
 * `worktree.copy`. Those come from the shared state, so only plain relative paths inside the
 * worktree are taken (no `..`, no absolute path, nothing in `.git`); others are skipped with a
 * warning.
 */
export function copiedPaths(project: Project, warn: (m: string) => void): string[] {
  const own: string[] = [];
  for (const raw of project.worktree.copy) {
    const rel = raw.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    const parts = rel.split("/");
    if (
      rel === "" ||
      isAbsolute(raw) ||
      raw.includes("\\") ||
      /[\u0000-\u001f\u007f]/.test(raw) ||
      parts.some((p) => p === ".." || p === "." || p === "" || p.toLowerCase() === ".git")
    ) {
      warn(
        `worktree.copy entry ${JSON.stringify(raw)} skipped: only relative paths inside the repository (no "..", nothing in .git)`,
      );
      continue;
    }
    own.push(rel);
  }
  return [...new Set([...PANTHEON_FILES, ...own])];
}

/**
 * Refuses (exit 1) a worktree base that is a Pantheon state commit: a host that takes only
 * branches keeps the state on one (refs/heads/pantheon-state), and with it checked out here, HEAD
 * is the state's records; a persona's branch from it would carry them into code. `base` defaults
 * to HEAD; summon asks before it starts the mission, so nothing is written.
 */
export async function refuseStateBase(store: Store, base?: string | null): Promise<void> {
  const at = base === undefined ? await store.codeHead() : base;
  if (at && (await store.holdsState(at)))
    throw new ConflictError(
      "--worktree branches from HEAD, and HEAD is a Pantheon state commit (the state's own branch checked out), not code; nothing was started",
      "git switch to a code branch (git switch main), then summon again",
    );
}

/**
 * A linked worktree beside the repository, on a new branch from HEAD, with Pantheon's own
 * untracked files and the project's `worktree.copy` files copied in; then the set-up command of
 * the working tree or this clone's git config, once the Director confirmed it (worktree-setup.ts).
 */
export async function createPersonaWorktree(
  ctx: Context,
  store: Store,
  project: Project,
  m: Mission,
  branch?: string,
): Promise<NonNullable<Mission["worktree"]>> {
  const code = await store.code();
  if (!code.root)
    throw new UsageError("--worktree needs a repository with a working tree", "run summon inside a normal clone");
  const base = await store.codeHead();
  if (!base)
    throw new ConflictError(
      "--worktree needs a commit to branch from (HEAD has none yet)",
      'git commit --allow-empty -m "start"',
    );
  await refuseStateBase(store, base);
  const name = checkBranchName(branch ?? defaultBranch(m));
  const path = resolve(
    dirname(code.root),
    `${basename(code.root)}-${name.replace(/^pantheon\//, "").replace(/\//g, "-")}`,
  );
  code.addWorktree(path, name, base);
  const top = realpathSync(path);
  const source = realpathSync(code.root);
  for (const rel of copiedPaths(project, ctx.warn)) {
    const from = join(code.root, rel);
    if (!existsSync(from) || code.isTracked(rel)) continue;
    // A symbolic link on the way in the repository (secrets -> ~/.ssh, an untracked link a
    // developer made) would carry a file from outside it into the worktree: never followed out.
    if (!inside(realpathSync(from), source)) {
      ctx.warn(`${rel} not copied: it is a symbolic link (or inside one) that leads outside the repository`);
      continue;
    }
    const to = join(path, rel);
    mkdirSync(dirname(to), { recursive: true });
    // A committed symbolic link on the way (config -> /etc) would carry the copy out of the worktree.
    if (!inside(realpathSync(dirname(to)), top)) {
      ctx.warn(`${rel} not copied: its folder in the worktree leads outside it`);
      continue;
    }
    try {
      if (statSync(from).isDirectory())
        cpSync(from, to, {
          recursive: true,
          force: false,
          errorOnExist: false,
          // Links inside a copied folder are copied as links, as written (relative ones keep
          // pointing into the worktree); one that leads outside the repository is left out.
          verbatimSymlinks: true,
          filter: (src) => {
            if (!lstatSync(src).isSymbolicLink() || linkStaysInside(src, source)) return true;
            ctx.warn(`${relative(code.root!, src)} not copied: a symbolic link that leads outside the repository`);
            return false;
          },
        });
      // COPYFILE_EXCL: never through a link already standing at the destination.
      else if (!existsSync(to)) copyFileSync(from, to, constants.COPYFILE_EXCL);
    } catch (e) {
      // A FIFO or socket in a copied folder, an unreadable file, a full disk: the worktree and its
      // branch exist already, so the persona still gets them, and the Director is told what is missing.
      ctx.warn(`${rel} not copied: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  await runWorktreeSetup(ctx, code, store, path);
  return { path, branch: name, base };
}

function inside(real: string, top: string): boolean {
  return real === top || real.startsWith(top + sep);
}

/** Whether a link's target, resolved (a dangling one as written), stays inside `top`. */
function linkStaysInside(link: string, top: string): boolean {
  try {
    return inside(realpathSync(link), top);
  } catch {
    return inside(resolve(realpathSync(dirname(link)), readlinkSync(link)), top);
  }
}

/** Records the worktree on the mission (its own commit: the mission was registered first). */
export async function recordWorktree(
  ctx: Context,
  handle: string,
  worktree: NonNullable<Mission["worktree"]>,
): Promise<Mission> {
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const m = await findMission(tx, handle);
    const next = { ...m, worktree, updatedAt: isoNow(ctx) };
    tx.put("missions", next);
    return {
      result: next,
      commit: commitInfo("mission.worktree", `mission ${missionId(m.number)}`, await resolveActor(ctx, tx)),
    };
  });
  return result;
}
