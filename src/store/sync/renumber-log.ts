import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";
import { join } from "node:path";
import { epicId, missionId, reviewId, taskId } from "../../domain/ids.js";
import type { MovedTo, RecordKind, Snapshot } from "../store.js";

/**
 * This clone's memory of the renumberings its syncs made:
 * `{"tasks": {"1": [{"to": 3, "id": "TST-H-0001"}]}}`, the number a record moved to and the id it
 * had here before. Only the clone where a record was renumbered ever used its old number, so only
 * it needs the notice and the guard of DESIGN §1.2; keeping it here (in the common dir, shared by
 * worktrees) makes them one small file read instead of a scan of every record. The former id is
 * what a persona of this clone holds: the guard lets the current owner's exact id through only
 * when it is not that id, and a record's priority letter has no history to recover it from.
 * A log of an earlier version holds bare numbers (`[3]`): read as moves with no id.
 */
export type RenumberLog = Record<string, Record<string, MovedTo[]>>;

/** One renumbering a merge made; `id` is the record's id before it (null when unknown). */
export interface RenumberMove {
  kind: string;
  from: number;
  to: number;
  id: string | null;
}

const file = (commonDir: string) => join(commonDir, "pantheon", "renumbered.json");

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0;
}

/** One entry as written by this version (`{to, id}`) or an earlier one (a bare number); null if neither. */
function movedTo(v: unknown): MovedTo | null {
  if (isNumber(v)) return { to: v, id: null };
  if (v === null || typeof v !== "object") return null;
  const { to, id } = v as { to?: unknown; id?: unknown };
  if (!isNumber(to)) return null;
  return { to, id: typeof id === "string" && /^[A-Z]{3}-[A-Z0-9-]{1,20}$/.test(id) ? id : null };
}

/**
 * The log, with whatever is not a move dropped: the file is ours, but a hand edit or a torn
 * copy must not turn into a lookup of a record path that is not a number.
 */
export function readRenumberLog(commonDir: string): RenumberLog {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file(commonDir), "utf8")) as unknown;
  } catch {
    return {};
  }
  const log: RenumberLog = {};
  if (!parsed || typeof parsed !== "object") return log;
  for (const [kind, byNumber] of Object.entries(parsed as Record<string, unknown>)) {
    if (!byNumber || typeof byNumber !== "object" || kind === "__proto__") continue;
    const into: Record<string, MovedTo[]> = {};
    for (const [from, list] of Object.entries(byNumber as Record<string, unknown>)) {
      if (!/^[1-9]\d{0,9}$/.test(from) || !Array.isArray(list)) continue;
      const moves = list.map(movedTo).filter((m): m is MovedTo => m !== null);
      if (moves.length > 0) into[from] = moves;
    }
    log[kind] = into;
  }
  return log;
}

/** Where records of a kind that had number `n` here went, and the ids they had (DESIGN §1.2). */
export function movedFrom(commonDir: string, kind: string, n: number): MovedTo[] {
  return readRenumberLog(commonDir)[kind]?.[String(n)] ?? [];
}

/** The id a record had at number `n` on the local side of a merge. */
async function idBefore(local: Snapshot, kind: RecordKind, n: number): Promise<string | null> {
  switch (kind) {
    case "missions":
      return missionId(n);
    case "reviews":
      return reviewId(n);
    case "tasks": {
      const t = await local.get("tasks", n).catch(() => null);
      return t ? taskId(t) : null;
    }
    default: {
      const e = await local.get("epics", n).catch(() => null);
      return e ? epicId(e) : null;
    }
  }
}

/** A merge's renumberings with the ids the records had on the local side: what this clone's personas hold. */
export async function withFormerIds(
  local: Snapshot,
  moves: ReadonlyArray<{ kind: RecordKind; from: number; to: number }>,
): Promise<RenumberMove[]> {
  const out: RenumberMove[] = [];
  for (const m of moves) out.push({ ...m, id: await idBefore(local, m.kind, m.from) });
  return out;
}

export function appendRenumberLog(commonDir: string, moves: readonly RenumberMove[]): void {
  if (moves.length === 0) return;
  const log = readRenumberLog(commonDir);
  for (const m of moves) {
    const kind = (log[m.kind] ??= {});
    // A record renumbered again (a second collision before it was published) keeps the numbers
    // it had before: they follow it to its new number, where its formerNumbers still list them.
    for (const list of Object.values(kind)) for (const e of list) if (e.to === m.from) e.to = m.to;
    const list = (kind[String(m.from)] ??= []);
    const same = list.find((e) => e.to === m.to);
    if (same) same.id ??= m.id;
    else list.push({ to: m.to, id: m.id });
  }
  ensureParentDir(commonDir, file(commonDir));
  const tmp = `${file(commonDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(log)}\n`);
  adjustSharedPerm(tmp, sharedPermOf(commonDir));
  renameSync(tmp, file(commonDir));
}
