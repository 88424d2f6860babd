import { isoOf } from "../../domain/history-charts.js";
import { type CommitData, parseTrailers } from "../git/commit-data.js";
import type { ObjectDb } from "../git/object-db.js";
import type { CommitEntry } from "../store.js";

/**
 * Walks history from `tip` newest first, over all parents (a sync merge brings commits from
 * both sides), ordered by committer date like `git log`; stops after `limit`. Reads commit
 * objects only, and not those `known` already describes (the journal's lines). The history
 * index (cache/history-walk.ts) lists commits in exactly this order without reading them.
 */
export async function walkLog(
  db: ObjectDb,
  tip: string,
  o: { limit?: number },
  known: (oid: string) => LogItem | undefined = () => undefined,
): Promise<CommitEntry[]> {
  const load = async (oid: string): Promise<LogItem> => known(oid) ?? logItem(oid, await db.readCommit(oid));
  const out: CommitEntry[] = [];
  const seen = new Set<string>([tip]);
  const queue: LogItem[] = [await load(tip)];
  while (queue.length > 0 && (o.limit === undefined || out.length < o.limit)) {
    queue.sort((a, b) => b.time - a.time);
    const next = queue.shift()!;
    out.push(next.entry);
    for (const p of next.entry.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(await load(p));
    }
  }
  return out;
}

/** A commit as the walk needs it: its log entry and its committer time (the walk's order). */
export interface LogItem {
  time: number;
  entry: CommitEntry;
}

export function logItem(oid: string, c: CommitData): LogItem {
  const summary = c.message.split("\n")[0] ?? "";
  return {
    time: c.committer.timestamp,
    entry: {
      oid,
      parents: c.parents,
      author: c.author.name,
      date: isoOf(c.author.timestamp * 1000),
      summary,
      trailers: parseTrailers(c.message),
    },
  };
}
