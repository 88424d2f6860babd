import { parseCommit, parseTrailers } from "../git/commit-codec.js";
import type { ObjectDb } from "../git/object-db.js";
import { trailerNames } from "./records-trailer.js";
import type { CommitEntry } from "../store.js";

/**
 * Walks history from `tip` newest first, over all parents (a sync merge brings commits from
 * both sides), ordered by committer date like `git log`. Reads commit objects only, and not
 * those `known` already describes (the journal's lines).
 */
export async function walkLog(
  db: ObjectDb,
  tip: string,
  o: { limit?: number; record?: string | readonly string[] },
  known: (oid: string) => LogItem | undefined = () => undefined,
): Promise<CommitEntry[]> {
  const load = async (oid: string): Promise<LogItem> => known(oid) ?? logItem(oid, (await db.read(oid)).content);
  const wanted = o.record === undefined ? null : typeof o.record === "string" ? [o.record] : o.record;
  const out: CommitEntry[] = [];
  const seen = new Set<string>([tip]);
  const queue: LogItem[] = [await load(tip)];
  while (queue.length > 0 && (o.limit === undefined || out.length < o.limit)) {
    queue.sort((a, b) => b.time - a.time);
    const next = queue.shift()!;
    if (!wanted || wanted.some((r) => trailerNames(next.entry.trailers["Pantheon-Records"] ?? [], r)))
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

export function logItem(oid: string, content: Buffer): LogItem {
  const c = parseCommit(content);
  const summary = c.message.split("\n")[0] ?? "";
  return {
    time: c.committer.timestamp,
    entry: {
      oid,
      parents: c.parents,
      author: c.author.name,
      date: new Date(c.author.timestamp * 1000).toISOString(),
      summary,
      trailers: parseTrailers(c.message),
    },
  };
}
