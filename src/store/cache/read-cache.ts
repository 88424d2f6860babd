import type { MovedTo, RecordKind } from "../store.js";
import type { ObjectDb } from "../git/object-db.js";
import type { TreeChanges } from "../git/tree-edit.js";
import type { Schemas } from "../state/record-schemas.js";
import type { TreeSource } from "../state/record-snapshot.js";
import { CachedSnapshot } from "./cached-snapshot.js";
import { dropCacheFiles, loadHead, loadKind, projectMemo, saveHead, saveKind, type CacheHead } from "./cache-files.js";
import { appendJournal, applyJournal, readJournal, type Journal } from "./cache-journal.js";
import { CACHE_VERSION } from "./cache-version.js";
import { journalEntryFor } from "./journal-entry.js";
import { refreshKind, type KindState, type SummaryTypes } from "./summary-cache.js";

export { CACHE_ROW_SHAPES, CACHE_VERSION } from "./cache-version.js";

/** Journal lines are cheap to apply (no git object read): a cache is saved again after this many. */
const RESAVE_AFTER_JOURNAL = 200;
/** The latest cache state per repository and kind in this process (a command may take several snapshots). */
const memo = new Map<string, { state: KindState<unknown>; at: number }>();
/** Well inside the minute a stale cache file is kept before it is swept (cache-files.ts). */
const MEMO_TTL_MS = 20_000;

/** What a snapshot of the tip needs of the store besides the cache. */
export interface TipParts {
  source: TreeSource;
  rootTree: () => Promise<string>;
  warn: (message: string) => void;
  movedFrom: (kind: RecordKind, n: number) => MovedTo[];
}

/**
 * The read cache of DESIGN §2.5, one owner for all of it: its files (cache-files.ts), its
 * version (cache-version.ts), the journal each mutation appends (cache-journal.ts), the rows
 * brought up to a commit from git's trees when the journal cannot lead (summary-cache.ts), and
 * the memo a command shares between its snapshots. Disposable: deleting it changes no answer.
 */
export class ReadCache {
  static readonly VERSION = CACHE_VERSION;
  private journalRead: { tip: string; journal: Journal } | undefined;

  constructor(
    private readonly db: ObjectDb,
    private readonly commonDir: string,
  ) {}

  /** The head file: the commit the cache last saw and that commit's schema version. */
  head(): CacheHead | null {
    return loadHead(this.commonDir);
  }

  /** Remembers the schema version found at `commit`, so the next command there reads no project.json for it. */
  noteHead(head: CacheHead): void {
    saveHead(this.commonDir, head);
  }

  /** The journal, read once per tip: the cache's catching up and the log share it. */
  journalAt(tip: string): Journal {
    if (this.journalRead?.tip !== tip) this.journalRead = { tip, journal: readJournal(this.commonDir) };
    return this.journalRead.journal;
  }

  /**
   * The tip's snapshot, with list-type reads served by the cache. When the cache was built at
   * this very commit, nothing of git is read until a command asks for one record by path.
   */
  snapshot(tip: string, parts: TipParts, head = this.head()): CachedSnapshot {
    const known = head?.commit === tip ? head.schemaVersion : undefined;
    const projectOid = () => this.journalAt(tip).projectAt(tip);
    const hashBlob = (bytes: Buffer) => this.db.hash("blob", bytes);
    return new CachedSnapshot(
      parts.source,
      tip,
      parts.warn,
      parts.movedFrom,
      this.kinds(tip, parts.rootTree),
      known,
      projectMemo(this.commonDir),
      projectOid,
      hashBlob,
    );
  }

  /** Each kind's rows at `tip`, loaded when a list of it is first asked for (only the tiny head file up front). */
  private kinds(tip: string, rootTree: () => Promise<string>) {
    const commonDir = this.commonDir;
    const pending = new Map<RecordKind, Promise<KindState<unknown>>>();
    return <K extends RecordKind>(kind: K): Promise<KindState<SummaryTypes[K]>> => {
      let p = pending.get(kind);
      if (!p) {
        p = (async () => {
          const key = `${commonDir}\0${kind}`;
          const held = memo.get(key);
          // A memo older than the side files' grace may point at files a newer save swept away
          // (a long-running `dashboard --watch`): reload from disk instead.
          const memoed =
            held && Date.now() - held.at < MEMO_TTL_MS ? (held.state as KindState<SummaryTypes[K]>) : undefined;
          let prev = memoed ?? loadKind(commonDir, kind);
          if (prev?.commit === tip) return prev;
          // Rewriting a kind's cache costs more than catching up: reads catch up from the saved
          // file (by the journal, else from git's trees), and save it again once that grows.
          let caughtUp: number | null = null;
          if (prev) {
            // The memo may be shared with a snapshot of an earlier commit: applied to a copy.
            const own = memoed
              ? {
                  ...prev,
                  shards: new Map(prev.shards),
                  rows: prev.rows.copy?.() ?? new Map(prev.rows),
                  bad: new Map(prev.bad),
                  unverified: { shards: new Set(prev.unverified.shards), rows: new Set(prev.unverified.rows) },
                }
              : prev;
            caughtUp = applyJournal(own, kind, this.journalAt(tip), tip);
            if (caughtUp !== null) prev = own;
          }
          let next =
            caughtUp !== null ? prev! : await refreshKind(this.db, commonDir, tip, await rootTree(), kind, prev);
          // Where the journal could not lead (a sync's merge, a dropped journal), saving now lets
          // the journal's next lines start from this commit.
          if (!prev || (caughtUp === null ? next.reread > 0 : caughtUp >= RESAVE_AFTER_JOURNAL)) {
            saveKind(commonDir, kind, next);
            // Tasks read back as the table just written: questions then read its columns, as
            // every later command does, not a row object per task (~0.4 s at 100,000).
            const saved = kind === "tasks" && next.rows.ordered === undefined ? loadKind(commonDir, kind) : null;
            if (saved?.commit === tip) next = saved;
          }
          memo.set(key, { state: next, at: Date.now() });
          return next;
        })();
        pending.set(kind, p);
      }
      return p as Promise<KindState<SummaryTypes[K]>>;
    };
  }

  /**
   * Tells the cache what a commit changed (its journal line), and the head that the commit's
   * schema version is `schemaVersion`, so the next command reads no git object it need not.
   * Best effort: the ref has moved, and a failure here only means a refresh from git later.
   */
  async afterCommit(
    parent: string,
    commit: string,
    changes: TreeChanges,
    schemas: Schemas,
    schemaVersion: number,
  ): Promise<void> {
    try {
      const entry = await journalEntryFor(this.db, parent, commit, changes, schemas);
      if (entry) appendJournal(this.commonDir, entry);
      saveHead(this.commonDir, { commit, schemaVersion });
    } catch {
      // the journal is a hint: reads fall back to git's trees
    }
  }

  /** Deletes the cache's files and forgets this process's memo of them. */
  drop(): void {
    dropCacheFiles(this.commonDir);
    for (const key of [...memo.keys()]) if (key.startsWith(`${this.commonDir}\0`)) memo.delete(key);
  }
}
