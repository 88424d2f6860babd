import { copyFileSync, existsSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { ConflictError, InvalidTransitionError } from "../../errors.js";
import { missionHandle, missionId } from "../../domain/ids.js";
import type { Mission } from "../../domain/schemas/mission.js";
import type { CodeRepo, LinkedWorktree, Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { copiedPaths } from "./persona-worktree.js";
import { findMission } from "../kernel/resolve-actor.js";

/** What a removal did. */
export interface WorktreeRemoval {
  mission: Mission;
  removed: NonNullable<Mission["worktree"]>;
  /** The branch deleted with it (null when the worktree had another branch or a detached HEAD: it stays). */
  deletedBranch: string | null;
  /** Edited copied files (ignored, so in no commit), each kept at `copy` before the worktree went. */
  kept: Array<{ file: string; copy: string }>;
}

interface RemovalPlan {
  code: CodeRepo;
  worktree: LinkedWorktree;
  deleteBranch: string | null;
  copies: string[];
}

/**
 * Checks, changing nothing, that a mission's worktree can be removed: git lists it as a
 * worktree of this clone (the record's path is shared data and trusted for nothing else), this
 * command does not run inside it, and nothing would be lost (store/code/commit-losses.ts; changed
 * files). The branch deleted is the recorded one only when git says it is checked out there.
 */
export async function checkWorktreeRemoval(ctx: Context, store: Store, mission: Mission): Promise<RemovalPlan> {
  const id = missionId(mission.number);
  const wt = mission.worktree;
  if (!wt) throw new InvalidTransitionError(`${id} has no worktree`, `pantheon mission show ${id}`);
  const code = await store.code();
  const worktree = code.findWorktree(wt.path);
  if (!worktree)
    throw new ConflictError(
      `${wt.path} is not a worktree of this clone (was ${id} started in another one?)`,
      "git worktree list",
    );
  const main = code.mainWorktree();
  if (inside(ctx.cwd, wt.path)) {
    throw new ConflictError(
      `Not removing ${wt.path}: this command runs inside it`,
      `cd ${main ?? dirname(wt.path)} && pantheon mission end ${id} --remove-worktree`,
    );
  }
  const deleteBranch = worktree.branch === wt.branch ? wt.branch : null;
  const project = await (await store.snapshot()).project();
  const loss = code.worktreeLosses(
    worktree,
    deleteBranch,
    copiedPaths(project, () => undefined),
  );
  if (loss.commits.length > 0 || loss.files.length > 0) {
    const on = deleteBranch ?? (worktree.branch === null ? "its detached HEAD" : worktree.branch);
    const what = [
      loss.commits.length > 0
        ? `${loss.commits.length} commit(s) kept nowhere else, on ${on} (${loss.commits
            .slice(0, 3)
            .map((c) => c.slice(0, 9))
            .join(", ")}${loss.commits.length > 3 ? ", …" : ""})`
        : "",
      loss.files.length > 0
        ? `changed files ${loss.files.slice(0, 5).join(", ")}${loss.files.length > 5 ? "…" : ""}`
        : "",
    ]
      .filter(Boolean)
      .join(" and ");
    throw new ConflictError(
      `Not removing ${wt.path}: it has ${what}`,
      `merge, push or rebase ${on} (a squash merge counts), commit or remove the files, then run again`,
      { commits: loss.commits, files: loss.files },
    );
  }
  return { code, worktree, deleteBranch, copies: loss.copies };
}

/**
 * Removes a mission's worktree (and its branch) when nothing would be lost; edited copied files
 * are copied to `<commondir>/pantheon/kept/<mission>/` first, and listed.
 */
export async function removePersonaWorktree(ctx: Context, id: string): Promise<WorktreeRemoval> {
  const store = await ctx.store();
  const mission = await findMission(await store.snapshot(), id);
  const plan = await checkWorktreeRemoval(ctx, store, mission);
  const dir = join(store.commonDir, "pantheon", "kept", missionHandle(mission).replace(":", "-"));
  const kept = plan.copies.map((file) => {
    const copy = freePath(join(dir, file));
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(join(plan.worktree.path, file), copy);
    return { file, copy };
  });
  plan.code.removeWorktree(plan.worktree.path, plan.deleteBranch);
  return { mission, removed: mission.worktree!, deletedBranch: plan.deleteBranch, kept };
}

/** `path`, or `path.1`, `path.2`…: a copy kept earlier is never overwritten. */
function freePath(path: string): string {
  let candidate = path;
  for (let n = 1; existsSync(candidate); n++) candidate = `${path}.${n}`;
  return candidate;
}

function inside(dir: string, top: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const rel = relative(real(top), real(dir));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
