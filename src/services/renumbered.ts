import { RenumberedError } from "../errors.js";
import { epicId, missionId, reviewId, taskId } from "../domain/ids.js";
import type { RecordKind, RecordTypes, Snapshot, Tx } from "../store/store.js";

/** What a finder needs of the command: where notices go, and whether `--force` was given. */
export interface IdLookup {
  warn(message: string): void;
  force?: boolean | undefined;
}

/** A lookup that says nothing and forces nothing (internal lookups by a handle). */
export const QUIET_LOOKUP: IdLookup = { warn: () => {} };

/**
 * Whether a snapshot is a mutation's: every record a mutation looks up is one it acts on or
 * through (the task it changes, a dependency it adds, the mission it acts under), so the
 * stricter rules for mutations apply to all of them and no call site can forget them.
 */
export function inMutation(snap: Snapshot): snap is Tx {
  return typeof (snap as Partial<Tx>).put === "function";
}

const NOUN: Record<RecordKind, string> = { tasks: "task", epics: "epic", missions: "mission", reviews: "review" };

export function recordId<K extends RecordKind>(kind: K, r: RecordTypes[K]): string {
  switch (kind) {
    case "tasks":
      return taskId(r as RecordTypes["tasks"]);
    case "epics":
      return epicId(r as RecordTypes["epics"]);
    case "missions":
      return missionId(r.number);
    default:
      return reviewId(r.number);
  }
}

/**
 * After a sync renumbered this clone's record, its old number belongs to the published one
 * (DESIGN §1.2, §3.4). A read through the number resolves to the current owner with a notice; a
 * mutation is refused naming both, because whoever typed the number (a persona holding an id from
 * before the sync) meant this clone's record, unless repeated with --force.
 */
export async function checkRenumbered<K extends RecordKind>(
  snap: Snapshot,
  kind: K,
  found: RecordTypes[K],
  written: string,
  look: IdLookup,
): Promise<void> {
  const moved = await snap.formerOwners(kind, found.number);
  if (moved.length === 0) return;
  const current = recordId(kind, found);
  const now = moved.map((r) => recordId(kind, r)).join(", ");
  if (inMutation(snap) && !look.force) {
    throw new RenumberedError(
      `${written} names ${current} now: a sync renumbered this clone's ${NOUN[kind]} ${written} to ${now}, and the number went to ${current} from another clone`,
      `use ${now}; to act on ${current}, repeat the command with --force`,
      { kind, number: found.number, current, renumbered: moved.map((r) => recordId(kind, r)) },
    );
  }
  look.warn(
    `note: ${current} is the published ${NOUN[kind]} with this number; ${now} had it here before a sync renumbered it`,
  );
}
