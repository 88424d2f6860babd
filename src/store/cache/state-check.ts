import type { RecordSummaries, ScanProblem, ScanResult, StateCheck } from "../store.js";
import type { ObjectDb } from "../git/object-db.js";
import { RECORD_KINDS, type RecordKind } from "../state/layout.js";
import { loadSealed, saveKind } from "./cache-files.js";
import { refreshKind, type KindState, type SummaryTypes } from "./summary-cache.js";

/**
 * Every record at `commit`, checked for doctor (DESIGN §2.5): each kind is brought to the
 * commit from its sealed cache as a read would be, except that nothing is taken on trust but
 * what the seal vouches for (a record whose very blob the cache validated); everything else,
 * the journal's hints included, is read from git and validated, streaming. So a state where
 * nothing changed since the last check reads no record at all, and one where a shard changed
 * reads only its changed blobs. The result is saved (sealed) for the next command, unless the
 * cache was found lying: that one is left for the finding, and `doctor --fix` rebuilds it.
 */
export async function checkKinds(
  db: ObjectDb,
  commonDir: string,
  commit: string,
  rootTree: string,
  trustCache: boolean,
): Promise<StateCheck> {
  const kinds: Partial<{ [K in RecordKind]: ScanResult<RecordSummaries[K]> }> = {};
  let validated = 0;
  const tampered: StateCheck["tampered"] = [];
  for (const kind of RECORD_KINDS) {
    const saved = loadSealed(commonDir, kind);
    const base = trustCache && saved.seal === "sealed" ? saved.state : null;
    // Sealed at this very commit, and nothing in it from the journal: it is the state, as is.
    const state =
      base?.commit === commit && base.unverified.rows.size + base.unverified.shards.size === 0
        ? base
        : await refreshKind(db, commonDir, commit, rootTree, kind, base, { verify: true });
    validated += state.reread;
    // A sealed file is believed, except the rows the journal gave it: those were read again, and
    // must say what their blobs say (a journal line is written by Pantheon, but not sealed).
    const lies =
      saved.seal === "broken" ||
      (saved.seal === "unsealed" && disagrees(saved.state, state)) ||
      (base !== null && base.unverified.rows.size > 0 && disagrees(base, state, base.unverified.rows));
    if (lies) tampered.push({ kind, path: saved.path });
    else if (!base || base.commit !== commit || state.reread > 0 || base.unverified.rows.size > 0)
      saveKind(commonDir, kind, state);
    (kinds as Record<RecordKind, unknown>)[kind] = scanOf(kind, state);
  }
  return { ...(kinds as { [K in RecordKind]: ScanResult<RecordSummaries[K]> }), validated, tampered };
}

/** A kind's state as doctor reads it: records in number order, then what is wrong. */
function scanOf<K extends RecordKind>(kind: K, s: KindState<SummaryTypes[K]>): ScanResult<SummaryTypes[K]> {
  const records = s.rows.ordered?.() ?? [...s.rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r.value);
  const problems: ScanProblem[] = [];
  for (const [path, [, message]] of s.bad) problems.push({ kind: "corrupt", path, message });
  for (const entry of s.stray) problems.push(strayProblem(kind, entry));
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { records, problems };
}

const TOO_LARGE = / \((Tree [0-9a-f]{12} is \d+ bytes, over the \d+-byte limit for a tree of the state)\)$/;

/** The cache keeps a stray entry as its path (with the reason, for a tree too large to read). */
function strayProblem(kind: RecordKind, entry: string): ScanProblem {
  const large = TOO_LARGE.exec(entry);
  if (large) {
    const path = entry.slice(0, large.index);
    return { kind: "stray", path, message: `${path}: ${large[1]}` };
  }
  // Entry names hold no "/": the depth says what the entry stands in for.
  const depth = entry.split("/").length;
  const message =
    depth === 1
      ? `${entry} is not a directory of records`
      : depth === 2
        ? `${entry} is not a shard directory`
        : `${entry} does not match the layout ${kind}/<NN>/<number>.json`;
  return { kind: "stray", path: entry, message };
}

/**
 * Whether a cache says something of a blob that git's copy contradicts (of rows `only`, when
 * given): another value for the same blob, valid where it is corrupt, or corrupt where it is
 * valid. Blob ids are content, so this holds at any commit the cache was saved at.
 */
function disagrees<T>(cached: KindState<T> | null, verified: KindState<T>, only?: ReadonlySet<number>): boolean {
  if (!cached) return false;
  const badOids = new Set([...verified.bad.values()].map(([oid]) => oid));
  const rows = only
    ? [...only].flatMap((n) => (cached.rows.get(n) ? [[n, cached.rows.get(n)!] as const] : []))
    : cached.rows;
  for (const [n, row] of rows) {
    if (badOids.has(row.oid)) return true;
    const v = verified.rows.get(n);
    if (v && v.oid === row.oid && canonical(v.value) !== canonical(row.value)) return true;
  }
  const validOids = new Set<string>();
  for (const [, row] of verified.rows) validOids.add(row.oid);
  if (!only) for (const [oid] of cached.bad.values()) if (validOids.has(oid)) return true;
  return false;
}

/** Key order is not meaning: the cache rebuilds objects column by column. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}
