import { RemoteRewrittenError } from "../../errors.js";
import type { RecordChange, StateSync, Store } from "../../store/store.js";
import { listRecords, records, recordRefs, type RecordRef } from "../kernel/record-ids.js";

/**
 * What a remote that rewrote its history lost (DESIGN §3.2), counted in records by id, and the
 * refusal that offers the two ways out with those counts. Nothing here says "0" of anything:
 * a message that has nothing to count says so in words.
 */

const short = (oid: string) => oid.slice(0, 12);
const key = (c: RecordChange) => `${c.kind}/${c.n}`;

export interface RemoteLosses {
  changes: RecordChange[];
  refs: RecordRef[];
}

/**
 * The records the last synced tip holds that the remote's tip lacks or holds in another version,
 * among those the history the remote dropped had changed (since the two parted): a rewound
 * remote lost every record published since its old tip; a purge lost the purged change. Ids
 * read at the last synced tip.
 */
export async function remoteLosses(
  store: Store,
  sync: StateSync,
  synced: string,
  remoteTip: string,
): Promise<RemoteLosses> {
  const differs = await sync.recordChanges(synced, remoteTip);
  if (differs.length === 0) return { changes: [], refs: [] };
  const parted = await sync.mergeBase(synced, remoteTip);
  const touched = parted ? new Set((await sync.recordChanges(synced, parted)).map(key)) : null;
  const changes = differs.filter((c) => !touched || touched.has(key(c)));
  return { changes, refs: await recordRefs(await store.snapshotAt(synced), changes) };
}

/** Of the losses, those this clone no longer has as it had them after moving from `before` to `after` (ids read at `before`). */
export async function droppedRecords(
  store: Store,
  sync: StateSync,
  before: string,
  after: string,
  losses: RemoteLosses,
): Promise<RecordRef[]> {
  const lost = new Set(losses.changes.map(key));
  const gone = (await sync.recordChanges(before, after)).filter((c) => lost.has(key(c)));
  return recordRefs(await store.snapshotAt(before), gone);
}

/**
 * The refusal of a sync with a remote that rewrote its history: a rewind (its tip is an older
 * commit of the history this clone last synced, as a stale `git push --mirror` leaves it) names
 * `--restore` first; any other rewrite (a purge) names `--accept-rewrite` first.
 */
export async function rewriteRefusal(
  sync: StateSync,
  remote: string,
  synced: string,
  local: string,
  remoteTip: string,
  losses: RemoteLosses,
): Promise<RemoteRewrittenError> {
  const rewind = (await sync.contains(remoteTip, synced)) === true;
  const unpublished = await sync.countCommits(synced, local);
  const n = losses.refs.length;
  const listed = listRecords(losses.refs);
  const replays =
    unpublished > 0
      ? `replays only this clone's ${unpublished} unpublished commit${unpublished === 1 ? "" : "s"} onto it`
      : "replays nothing (every commit here was published)";
  const merged = `this clone's state, merged with anything new on ${remote}`;
  const data = { remote, remoteTip, syncedTip: synced, unpublished, rewind, lost: losses.refs };
  if (rewind) {
    const what = n > 0 ? `${remote} lost ${records(n)} published since: ${listed}` : "no record differs";
    return new RemoteRewrittenError(
      `${remote}'s state was rewound: its tip ${short(remoteTip)} is an older commit of the history this clone last synced with it (${short(synced)}), as a stale push such as git push --mirror leaves it; ${what}; nothing was merged or pushed`,
      `pantheon sync ${remote} --restore publishes ${n === 0 ? "this clone's state" : n === 1 ? "it" : "them"} again (${merged}); pantheon sync ${remote} --accept-rewrite takes ${remote}'s state instead${n > 0 ? `, drops ${n === 1 ? "that record" : `those ${records(n)}`} here too` : ""} and ${replays}`,
      data,
    );
  }
  const what =
    n > 0
      ? `${records(n)} differ${n === 1 ? "s" : ""} from what this clone last synced: ${listed}`
      : "no record differs from what this clone last synced";
  return new RemoteRewrittenError(
    `${remote} rewrote the state's history: its tip ${short(remoteTip)} no longer contains ${short(synced)}, the last tip this clone synced with it; ${what}; nothing was merged or pushed`,
    `pantheon sync ${remote} --accept-rewrite takes ${remote}'s state${n > 0 ? `, drops ${n === 1 ? "that change" : "those changes"} here` : ""} and ${replays}; pantheon sync ${remote} --restore undoes the rewrite instead (publishes ${merged})`,
    data,
  );
}
