import { appendFileSync, existsSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { recordPath, type RecordKind } from "../state/layout.js";
import { cacheDir } from "./cache-files.js";
import { adjustSharedPerm, sharedPermOf } from "../git/shared-perm.js";
import type { LogItem } from "../state/commit-log.js";
import type { CommitEntry } from "../store.js";
import { CACHE_VERSION } from "./cache-version.js";
import type { KindState } from "./summary-cache.js";

/**
 * The read cache's journal (DESIGN §2.5): every mutation appends one line naming its parent
 * commit, its commit, and what it changed (per kind: the new shard tree ids and the changed
 * rows). A read whose kind cache is a few commits behind the ref follows the lines from the
 * cached commit to the tip and reads no git object at all; where the chain breaks (a sync's
 * merge, a crash between the ref update and the append, a dropped journal), the refresh from
 * git's trees takes over from the last commit reached. The journal is a hint, the trees are the
 * truth: applying a line gives exactly what re-reading its commit's changed shards would.
 */
export interface JournalEntry {
  /** Parent commit and commit. */
  p: string;
  c: string;
  /** Per kind, shard name → its new tree id (null: the shard is gone). */
  s: Partial<Record<RecordKind, Record<string, string | null>>>;
  /** Per kind, [number, blob id, row] for a written record, [number, null] for a removed one. */
  r: Partial<Record<RecordKind, Array<[number, string, unknown] | [number, null]>>>;
  /** The commit as the log shows it, with its committer time (the dashboard's recent activity then reads no git object). */
  l?: Omit<CommitEntry, "oid"> & { t: number };
  /** project.json's blob id at the commit (the dashboard then reads project.json from its memo). */
  j?: string;
  /**
   * Per kind, number → the record's blob id at the parent (null: it was not there): with `r`,
   * what the history index needs for `task history` to read two blobs and no tree.
   */
  o?: Partial<Record<RecordKind, Record<string, string | null>>>;
}

/** Past this size the journal is dropped and reads catch up from git once (each line is ~0.5 KB). */
const MAX_JOURNAL_BYTES = 512 * 1024;

export function journalFile(commonDir: string): string {
  return join(cacheDir(commonDir), `journal-v${CACHE_VERSION}.ndjson`);
}

/**
 * Appends one entry. O_APPEND makes concurrent appends from racing processes land whole, one
 * after another; a line torn by a crash is skipped by readers. Failure is harmless.
 */
export function appendJournal(commonDir: string, entry: JournalEntry): void {
  const file = journalFile(commonDir);
  try {
    const created = !existsSync(file);
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
    if (created) adjustSharedPerm(file, sharedPermOf(commonDir));
    if (statSync(file).size > MAX_JOURNAL_BYTES) unlinkSync(file);
  } catch {
    // no cache directory yet (no read has built one) or read-only: reads refresh from git
  }
}

/**
 * The journal as read: lines indexed by parent and by commit from their first bytes (appendJournal
 * writes "p" then "c"), each parsed only when asked for. At its 512 KB limit, parsing every line
 * cost ~3 ms, and a read asks for the few lines since its cache was saved.
 */
export class Journal {
  private readonly byParent = new Map<string, string>();
  private readonly byCommit = new Map<string, string>();

  constructor(text: string) {
    for (const line of text.split("\n")) {
      const m = LINE_START.exec(line);
      // The latest line for a parent wins, should the ref ever have been reset.
      if (!m) continue;
      this.byParent.set(m[1]!, line);
      this.byCommit.set(m[2]!, line);
    }
  }

  get size(): number {
    return this.byParent.size;
  }

  /** The line whose parent is `parent`; undefined when there is none or it was torn by a crash. */
  get(parent: string): JournalEntry | undefined {
    return this.parse(this.byParent.get(parent));
  }

  /** Each line parsed once: every kind a read catches up (the dashboard's four) walks the same chain. */
  private readonly parsed = new Map<string, JournalEntry | undefined>();

  private parse(line: string | undefined): JournalEntry | undefined {
    if (line === undefined) return undefined;
    if (!this.parsed.has(line)) this.parsed.set(line, parse(line));
    return this.parsed.get(line);
  }

  /** Every commit a line names, with its commit time when the line carries it (recovery candidates; never trusted unverified). */
  commits(): Array<{ commit: string; time: number | null }> {
    return [...this.byCommit.keys()].map((commit) => {
      const t = this.parse(this.byCommit.get(commit))?.l?.t;
      return { commit, time: typeof t === "number" ? t : null };
    });
  }

  /** project.json's blob id at `commit`, when its line says. */
  projectAt(commit: string): string | undefined {
    const j = this.parse(this.byCommit.get(commit))?.j;
    return typeof j === "string" && /^[0-9a-f]{40}$/.test(j) ? j : undefined;
  }

  /**
   * Per record path the commit wrote, its blob id at the parent and at the commit (null: absent),
   * when the line says both (lines before the history index do not say the first).
   */
  blobs(commit: string): Map<string, [string | null, string | null]> | undefined {
    const e = this.parse(this.byCommit.get(commit));
    if (!e?.o) return undefined;
    const out = new Map<string, [string | null, string | null]>();
    const id = (v: unknown) => (typeof v === "string" && /^[0-9a-f]{40}$/.test(v) ? v : v === null ? null : undefined);
    for (const [kind, rows] of Object.entries(e.r) as Array<[RecordKind, Array<[number, string | null]>]>) {
      const before = e.o[kind];
      if (!Array.isArray(rows) || !before || typeof before !== "object") continue;
      for (const row of rows) {
        if (!Array.isArray(row) || !Number.isSafeInteger(row[0])) continue;
        const [was, now] = [id(before[String(row[0])]), id(row[1])];
        if (was !== undefined && now !== undefined) out.set(recordPath(kind, row[0]), [was, now]);
      }
    }
    return out;
  }

  /** The commit as the log walk needs it, when its line says (lines before this version do not). */
  logged(commit: string): LogItem | undefined {
    const l = this.parse(this.byCommit.get(commit))?.l;
    if (
      !l ||
      typeof l.t !== "number" ||
      !Array.isArray(l.parents) ||
      typeof l.author !== "string" ||
      typeof l.date !== "string" ||
      typeof l.summary !== "string" ||
      typeof l.trailers !== "object" ||
      l.trailers === null
    )
      return undefined;
    const { t, ...entry } = l;
    return { time: t, entry: { oid: commit, ...entry } };
  }
}

const LINE_START = /^\{"p":"([0-9a-f]{40})","c":"([0-9a-f]{40})",/;

function parse(line: string): JournalEntry | undefined {
  try {
    const e = JSON.parse(line) as JournalEntry;
    return typeof e.p === "string" && typeof e.c === "string" && e.s && e.r ? e : undefined;
  } catch {
    return undefined; // torn mid-line by a crash: the chain breaks here and git takes over
  }
}

export function readJournal(commonDir: string): Journal {
  try {
    return new Journal(readFileSync(journalFile(commonDir), "utf8"));
  } catch {
    return new Journal("");
  }
}

/**
 * Brings `state` (in place) from its commit to `tip` by the journal, when the journal's lines
 * lead there; returns how many lines were applied, or null (nothing applied) when they do not:
 * the refresh from git then starts from the state as it was.
 */
export function applyJournal<T>(
  state: KindState<T>,
  kind: RecordKind,
  byParent: Pick<Journal, "get" | "size">,
  tip: string,
): number | null {
  // Stray entries (hostile or foreign state) are re-judged from git's trees, never from the journal.
  if (state.stray.length > 0) return null;
  const chain: JournalEntry[] = [];
  // Bounded by the journal's length: a cycle is impossible for commit ids, but a corrupt file is not.
  for (let at = state.commit; at !== tip; ) {
    const e = byParent.get(at);
    if (!e || chain.length >= byParent.size) return null;
    chain.push(e);
    at = e.c;
  }
  for (const e of chain) {
    for (const [shard, tree] of Object.entries(e.s[kind] ?? {})) {
      if (tree === null) state.shards.delete(shard);
      else state.shards.set(shard, tree);
      state.unverified.shards.add(shard);
    }
    for (const row of e.r[kind] ?? []) {
      const [n, oid] = row;
      // A hint reads follow, not a check: doctor reads what it gave from git again.
      state.unverified.rows.add(n);
      // The path is rewritten (or gone): whatever was wrong with the old blob no longer is.
      state.bad.delete(recordPath(kind, n));
      if (oid === null) state.rows.delete(n);
      else state.rows.set(n, { oid, value: (row as [number, string, T])[2] });
    }
  }
  state.commit = tip;
  return chain.length;
}
