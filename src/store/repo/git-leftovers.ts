import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { GitLeftover } from "../store.js";

/**
 * Temporary files git writes in the object store and renames when done: `index-pack` (every
 * fetch that brings a pack) writes `tmp_pack_*`, `tmp_idx_*` and `tmp_rev_*` in objects/pack,
 * `repack` writes `.tmp-<pid>-pack-*` there, a loose object starts as `tmp_obj_*`. A git killed
 * or failing (a full disk) in between leaves them, and only a `git gc` two weeks later removes
 * them; a fetch can leave hundreds of megabytes. A live writer keeps touching its file, so one
 * untouched for an hour is a leftover.
 */
const TEMPORARY = /^(tmp_(pack|idx|rev|mtimes|obj)_|\.tmp-)/;
export const LEFTOVER_AGE_MS = 60 * 60_000;

/** The leftovers untouched for an hour (doctor), or with `since`, those written since then (a git that just failed). */
export function gitLeftovers(commonDir: string, o: { since?: number; now?: number } = {}): GitLeftover[] {
  const now = o.now ?? Date.now();
  const out: GitLeftover[] = [];
  for (const dir of ["objects/pack", "objects"]) {
    let names: string[];
    try {
      names = readdirSync(join(commonDir, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!TEMPORARY.test(name)) continue;
      try {
        const st = statSync(join(commonDir, dir, name));
        const ageMs = Math.max(0, now - st.mtimeMs);
        const left = o.since === undefined ? ageMs >= LEFTOVER_AGE_MS : st.mtimeMs >= o.since;
        if (st.isFile() && left) out.push({ path: `${dir}/${name}`, bytes: st.size, ageMs });
      } catch {
        // renamed or removed meanwhile: not a leftover
      }
    }
  }
  return out.sort((a, b) => b.ageMs - a.ageMs);
}
