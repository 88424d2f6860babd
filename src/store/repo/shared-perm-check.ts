/**
 * Doctor's look at the permissions of what Pantheon creates in the common dir (DESIGN §2.2):
 * the state ref and its directories, its reflog, the object directories, and `pantheon/`. A
 * repository that was used before `core.sharedRepository` was set (or by an older Pantheon,
 * which ignored it) has 2755 directories and 644 files there, and the second member of the
 * group gets EACCES; `doctor --fix` applies the bits git would have.
 */
import { chmodSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { sharedMode, PERM_UMASK, type SharedPerm } from "../git/shared-perm.js";

/** Loose objects are many and read-only by design: only their directories are checked. */
function* paths(commonDir: string): Generator<{ path: string; st: Stats }> {
  const walk = function* (path: string, deep: boolean): Generator<{ path: string; st: Stats }> {
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) return;
    yield { path, st };
    if (!st.isDirectory() || !deep) return;
    for (const name of readdirSync(path)) yield* walk(join(path, name), true);
  };
  yield* walk(join(commonDir, "refs", "coordination"), true);
  yield* walk(join(commonDir, "logs", "refs", "coordination"), true);
  yield* walk(join(commonDir, "pantheon"), true);
  let objects: string[] = [];
  try {
    objects = readdirSync(join(commonDir, "objects")).filter((d) => /^[0-9a-f]{2}$/.test(d));
  } catch {
    // no objects dir: nothing to check
  }
  for (const d of objects) yield* walk(join(commonDir, "objects", d), false);
}

/** Paths (relative to the common dir) whose mode is not what core.sharedRepository gives them. */
export function sharedPermProblems(
  commonDir: string,
  perm: SharedPerm,
): Array<{ path: string; mode: number; want: number }> {
  if (perm === PERM_UMASK) return [];
  const out: Array<{ path: string; mode: number; want: number }> = [];
  for (const { path, st } of paths(commonDir)) {
    const mode = st.mode & 0o7777;
    const want = sharedMode(perm, mode, st.isDirectory());
    if (want !== mode) out.push({ path, mode, want });
  }
  return out;
}

/** Applies the bits; returns what it changed and what it could not (another user's files). */
export function fixSharedPerms(commonDir: string, perm: SharedPerm): { fixed: string[]; failed: string[] } {
  const fixed: string[] = [];
  const failed: string[] = [];
  for (const p of sharedPermProblems(commonDir, perm)) {
    try {
      chmodSync(p.path, p.want);
      fixed.push(p.path);
    } catch {
      failed.push(p.path);
    }
  }
  return { fixed, failed };
}
