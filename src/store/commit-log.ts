import { parseCommit, parseTrailers } from "./commit-codec.js";
import type { ObjectDb } from "./object-db.js";
import { trailerNames } from "./records-trailer.js";
import type { CommitEntry } from "./store.js";

/**
 * Walks history from `tip` newest first, over all parents (a sync merge brings commits from
 * both sides), ordered by committer date like `git log`. Reads commit objects only.
 */
export async function walkLog(db: ObjectDb, tip: string, o: { limit?: number; record?: string | readonly string[] }): Promise<CommitEntry[]> {
  const wanted = o.record === undefined ? null : typeof o.record === "string" ? [o.record] : o.record;
  const out: CommitEntry[] = [];
  const seen = new Set<string>([tip]);
  const queue: Array<{ oid: string; time: number; entry: CommitEntry }> = [await load(db, tip)];
  while (queue.length > 0 && (o.limit === undefined || out.length < o.limit)) {
    queue.sort((a, b) => b.time - a.time);
    const next = queue.shift()!;
    if (!wanted || wanted.some((r) => trailerNames(next.entry.trailers["Pantheon-Records"] ?? [], r))) out.push(next.entry);
    for (const p of next.entry.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(await load(db, p));
    }
  }
  return out;
}

async function load(db: ObjectDb, oid: string): Promise<{ oid: string; time: number; entry: CommitEntry }> {
  const c = parseCommit((await db.read(oid)).content);
  const summary = c.message.split("\n")[0] ?? "";
  return {
    oid,
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
