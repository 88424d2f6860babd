import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";

/**
 * The last tip a `pantheon sync` of this clone merged from or pushed to each remote (DESIGN
 * §3.2): `{"origin": "<oid>"}` in `<commondir>/pantheon/`, shared by the clone's worktrees. A
 * remote whose new tip does not contain it rewrote its history. It is kept apart from the
 * tracking ref because a plain `git fetch` moves that ref too, and must not hide a rewrite.
 */
const file = (commonDir: string) => join(commonDir, "pantheon", "synced-tips.json");
const OID = /^[0-9a-f]{40}$/;

// A Map, not an object: a remote may be named "__proto__".
function readAll(commonDir: string): Map<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file(commonDir), "utf8")) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return new Map();
    return new Map(
      Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string" && OID.test(e[1])),
    );
  } catch {
    return new Map();
  }
}

export function readSyncedTip(commonDir: string, remote: string): string | null {
  return readAll(commonDir).get(remote) ?? null;
}

/** Written to a temporary name and renamed: a reader sees the old file or the new one. Syncs of one clone are serialised by the sync lock. */
export function writeSyncedTip(commonDir: string, remote: string, tip: string): void {
  const all = readAll(commonDir);
  if (all.get(remote) === tip) return;
  all.set(remote, tip);
  // With core.sharedRepository, another member of the group syncs this clone too.
  ensureParentDir(commonDir, file(commonDir));
  const tmp = `${file(commonDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(Object.fromEntries(all), null, 2)}\n`);
  adjustSharedPerm(tmp, sharedPermOf(commonDir));
  renameSync(tmp, file(commonDir));
}
