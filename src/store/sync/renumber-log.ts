import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";
import { join } from "node:path";

/**
 * This clone's memory of the renumberings its syncs made: `{"tasks": {"1": [3]}}`. Only the
 * clone where a record was renumbered ever used its old number, so only it needs the notice
 * of DESIGN §1.2; keeping it here (in the common dir, shared by worktrees) makes that notice
 * one small file read instead of a scan of every record.
 */
export type RenumberLog = Record<string, Record<string, number[]>>;

const file = (commonDir: string) => join(commonDir, "pantheon", "renumbered.json");

export function readRenumberLog(commonDir: string): RenumberLog {
  try {
    const parsed = JSON.parse(readFileSync(file(commonDir), "utf8")) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as RenumberLog) : {};
  } catch {
    return {};
  }
}

export function appendRenumberLog(
  commonDir: string,
  moves: ReadonlyArray<{ kind: string; from: number; to: number }>,
): void {
  if (moves.length === 0) return;
  const log = readRenumberLog(commonDir);
  for (const m of moves) {
    const kind = (log[m.kind] ??= {});
    kind[String(m.from)] = [...new Set([...(kind[String(m.from)] ?? []), m.to])];
  }
  ensureParentDir(commonDir, file(commonDir));
  const tmp = `${file(commonDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(log)}\n`);
  adjustSharedPerm(tmp, sharedPermOf(commonDir));
  renameSync(tmp, file(commonDir));
}
