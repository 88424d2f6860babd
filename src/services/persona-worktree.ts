import { copyFileSync, cpSync, existsSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ConflictError, InvalidTransitionError, UsageError } from "../errors.js";
import { missionId } from "../domain/ids.js";
import type { Mission } from "../domain/schemas/mission.js";
import type { Project } from "../domain/schemas/project.js";
import type { Store } from "../store/store.js";
import { commitInfo } from "./commit-info.js";
import { isoNow, type Context } from "./context.js";
import { findMission, resolveActor } from "./resolve-actor.js";

/** Files Pantheon installs that a persona's worktree needs even when they are not committed. */
const PANTHEON_FILES = [".pantheon", "AGENTS.md", "CLAUDE.md", "GEMINI.md", ".claude/commands", ".opencode/commands", ".gemini/commands", ".agents/skills"];

export function defaultBranch(m: Pick<Mission, "persona" | "number">): string {
  return `pantheon/${m.persona.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "persona"}-${m.number}`;
}

export function checkBranchName(branch: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(branch) || branch.includes("..") || branch.endsWith(".lock") || branch.endsWith("/")) {
    throw new UsageError(`Invalid branch name "${branch}"`, "use letters, digits, / - _ . (e.g. pantheon/hephaestus-3)");
  }
  return branch;
}

/**
 * A linked worktree beside the repository, on a new branch from HEAD, with Pantheon's own
 * untracked files and the project's `worktree.copy` files copied in; `worktree.setup` runs there.
 */
export async function createPersonaWorktree(ctx: Context, store: Store, project: Project, m: Mission, branch?: string): Promise<NonNullable<Mission["worktree"]>> {
  const code = await store.code();
  if (!code.root) throw new UsageError("--worktree needs a repository with a working tree", "run summon inside a normal clone");
  const base = await store.codeHead();
  if (!base) throw new ConflictError("--worktree needs a commit to branch from (HEAD has none yet)", 'git commit --allow-empty -m "start"');
  const name = checkBranchName(branch ?? defaultBranch(m));
  const path = resolve(dirname(code.root), `${basename(code.root)}-${name.replace(/^pantheon\//, "").replace(/\//g, "-")}`);
  code.addWorktree(path, name, base);
  for (const rel of [...PANTHEON_FILES, ...project.worktree.copy]) {
    const from = join(code.root, rel);
    if (!existsSync(from) || code.isTracked(rel)) continue;
    mkdirSync(dirname(join(path, rel)), { recursive: true });
    if (statSync(from).isDirectory()) cpSync(from, join(path, rel), { recursive: true, force: false, errorOnExist: false });
    else if (!existsSync(join(path, rel))) copyFileSync(from, join(path, rel));
  }
  if (project.worktree.setup) {
    const code2 = await ctx.launcher.run("sh", ["-c", project.worktree.setup], { cwd: path, env: {} });
    if (code2 !== 0) ctx.warn(`worktree.setup (${project.worktree.setup}) exited ${code2} in ${path}`);
  }
  return { path, branch: name, base };
}

/** Records the worktree on the mission (its own commit: the mission was registered first). */
export async function recordWorktree(ctx: Context, handle: string, worktree: NonNullable<Mission["worktree"]>): Promise<Mission> {
  const store = await ctx.store();
  const { result } = await store.mutate(async (tx) => {
    const m = await findMission(tx, handle);
    const next = { ...m, worktree, updatedAt: isoNow(ctx) };
    tx.put("missions", next);
    return { result: next, commit: commitInfo("mission.worktree", `mission ${missionId(m.number)}`, await resolveActor(ctx, tx)) };
  });
  return result;
}

/**
 * Removes a mission's worktree and branch, refusing while that would lose anything: a commit
 * only on its branch (not squash-merged or rebased elsewhere) or a changed file.
 */
export async function removePersonaWorktree(ctx: Context, id: string): Promise<{ mission: Mission; removed: NonNullable<Mission["worktree"]> }> {
  const store = await ctx.store();
  const mission = await findMission(await store.snapshot(), id);
  const wt = mission.worktree;
  if (!wt) throw new InvalidTransitionError(`${missionId(mission.number)} has no worktree`, `pantheon mission show ${missionId(mission.number)}`);
  const code = await store.code();
  const loss = code.worktreeLosses(wt.path, wt.branch);
  if (loss.commits.length > 0 || loss.files.length > 0) {
    const what = [
      loss.commits.length > 0 ? `${loss.commits.length} commit(s) only on ${wt.branch} (${loss.commits.slice(0, 3).map((c) => c.slice(0, 9)).join(", ")})` : "",
      loss.files.length > 0 ? `changed files ${loss.files.slice(0, 5).join(", ")}${loss.files.length > 5 ? "…" : ""}` : "",
    ].filter(Boolean).join(" and ");
    throw new ConflictError(`Not removing ${wt.path}: it has ${what}`, `merge ${wt.branch} (a squash merge counts) or commit the files, then run again`, { commits: loss.commits, files: loss.files });
  }
  code.removeWorktree(wt.path, wt.branch);
  return { mission, removed: wt };
}
