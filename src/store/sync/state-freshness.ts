import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ObjectDb } from "../git/object-db.js";
import { readRef } from "../git/ref-cas.js";
import type { RepoPaths } from "../repo/repo.js";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";
import { runGit } from "../repo/run-git.js";

import type { Freshness } from "../../domain/freshness.js";

export type { Freshness } from "../../domain/freshness.js";

interface Entry {
  local: string;
  remote: string;
  ahead: number;
  behind: number;
}

interface CacheFile {
  /** packed-refs as last scanned (size and mtime), and the tracking refs it held. */
  packed?: { stamp: string; refs: Record<string, string> };
  entries: Record<string, Entry>;
}

/** Sets an own property even for a key such as "__proto__" (a remote may be named anything git allows). */
const put = <T>(o: Record<string, T>, key: string, value: T) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

const file = (commonDir: string) => join(commonDir, "pantheon", "freshness-v1.json");
const TRACKING = /^refs\/coordination\/remotes\/([^/]+)\/main$/;
/** A walk over this clone's own commits stops here and asks git. */
const MAX_WALK = 64;

function readCache(commonDir: string): CacheFile {
  try {
    const parsed = JSON.parse(readFileSync(file(commonDir), "utf8")) as CacheFile;
    if (parsed && typeof parsed === "object" && parsed.entries && typeof parsed.entries === "object") return parsed;
  } catch {
    // none yet, or damaged: recomputed
  }
  return { entries: {} };
}

function writeCache(commonDir: string, cache: CacheFile): void {
  try {
    ensureParentDir(commonDir, file(commonDir));
    const tmp = `${file(commonDir)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(cache));
    adjustSharedPerm(tmp, sharedPermOf(commonDir));
    renameSync(tmp, file(commonDir));
  } catch {
    // a read-only common dir: the answer is recomputed next time
  }
}

/** Remotes with a tracking ref of the state: loose ones (one readdir), then packed-refs (rescanned only when it changed). */
function trackedRemotes(commonDir: string, cache: CacheFile): { names: Set<string>; changed: boolean } {
  const names = new Set<string>();
  try {
    for (const name of readdirSync(join(commonDir, "refs", "coordination", "remotes"))) names.add(name);
  } catch {
    // none loose
  }
  let changed = false;
  let stamp = "";
  try {
    const st = statSync(join(commonDir, "packed-refs"));
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    // no packed-refs
  }
  if ((cache.packed?.stamp ?? "") !== stamp) {
    const refs: Record<string, string> = {};
    if (stamp !== "") {
      for (const line of readFileSync(join(commonDir, "packed-refs"), "utf8").split("\n")) {
        const [oid, ref] = line.split(" ");
        const m = ref ? TRACKING.exec(ref) : null;
        if (m && oid && /^[0-9a-f]{40}$/.test(oid)) put(refs, m[1]!, oid);
      }
    }
    cache.packed = { stamp, refs };
    changed = true;
  }
  for (const name of Object.keys(cache.packed?.refs ?? {})) names.add(name);
  return { names, changed };
}

/**
 * Steps back from `from` through this clone's own single-parent commits (loose objects: no pack
 * index is read for them) until `to`; the number of steps, or null.
 */
async function stepsBack(db: ObjectDb, from: string, to: string): Promise<number | null> {
  let at = from;
  for (let steps = 0; steps <= MAX_WALK; steps++) {
    if (at === to) return steps;
    const obj = await db.readIfLoose(at);
    if (!obj || obj.type !== "commit") return null;
    const parents = (await db.readCommit(at)).parents;
    if (parents.length !== 1) return null;
    at = parents[0]!;
  }
  return null;
}

/**
 * Compares `local` with every remote's tracking ref, with no network. The ancestry answer is
 * cached per pair; after this clone's own commits (a mutation's single-parent commit) it is
 * carried forward by walking them, so a read after a write spawns no git. Only a moved
 * tracking ref (a fetch) or a merge costs one `git rev-list --left-right --count`.
 */
export async function stateFreshness(
  paths: RepoPaths,
  db: ObjectDb,
  env: NodeJS.ProcessEnv,
  local: string,
): Promise<Freshness[]> {
  const cache = readCache(paths.commonDir);
  const tracked = trackedRemotes(paths.commonDir, cache);
  if (tracked.names.size === 0) return [];
  let dirty = tracked.changed;
  const out: Freshness[] = [];
  for (const remote of [...tracked.names].sort()) {
    const tip = await readRef(paths.commonDir, `refs/coordination/remotes/${remote}/main`).catch(() => null);
    if (!tip) continue;
    if (tip === local) {
      out.push({ remote, ahead: 0, behind: 0 });
      continue;
    }
    const known = Object.hasOwn(cache.entries, remote) ? cache.entries[remote] : undefined;
    let entry: Entry | null = known && known.remote === tip && known.local === local ? known : null;
    if (!entry && known && known.remote === tip) {
      const steps = await stepsBack(db, local, known.local);
      if (steps !== null) entry = { local, remote: tip, ahead: known.ahead + steps, behind: known.behind };
    }
    if (!entry) {
      const r = runGit(paths, ["rev-list", "--left-right", "--count", `${local}...${tip}`], env);
      const [ahead, behind] = r.stdout.trim().split(/\s+/).map(Number);
      if (r.status !== 0 || !Number.isFinite(ahead) || !Number.isFinite(behind)) continue; // git cannot tell (objects missing): say nothing
      entry = { local, remote: tip, ahead: ahead!, behind: behind! };
    }
    if (entry !== known) {
      put(cache.entries, remote, entry);
      dirty = true;
    }
    out.push({ remote, ahead: entry.ahead, behind: entry.behind });
  }
  if (dirty) writeCache(paths.commonDir, cache);
  return out;
}
