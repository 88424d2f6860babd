import type { HistoryFacts } from "../../domain/history-charts.js";
import { GitError } from "../../errors.js";
import type { ObjectDb } from "../git/object-db.js";
import type { Journal } from "./cache-journal.js";
import { loadHistory, saveHistory } from "./history-file.js";
import { gitRun, journalRun, objectRun } from "./history-source.js";
import { emptyHistory, HistoryTable } from "./history-table.js";

/** Commits taken from the journal are cheap to take again: the file is written after this many. */
const RESAVE_AFTER_JOURNAL = 200;
/** The table per repository in this process: a long-lived reader (pantheon web) catches up from it. */
const memo = new Map<string, HistoryTable>();

/**
 * The history index of DESIGN §2.4a: per record the commits that touched it, per task number
 * what the charts read, in the order `git log` lists the commits, so `task history`, the
 * charts and the burn-down never walk the commits. Kept like the read cache: a file in the
 * cache directory (history-file.ts) describing one commit, brought up to the ref from the
 * journal's lines (this clone's mutations), else from one `git rev-list` and `git cat-file`
 * (a sync, a rebuild), extending from the indexed commit when the ref's history contains it and
 * laying the rows out again otherwise (history-table.ts). Disposable: deleting it changes no
 * answer; a file that fails a check is rebuilt, never trusted.
 */
export class HistoryIndex {
  constructor(
    private readonly db: ObjectDb,
    private readonly commonDir: string,
    private readonly journal: (tip: string) => Journal,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Asks `question` of the table brought up to `tip`. Blocks of the file are read as the
   * question needs them; when one turns out damaged, the answer is thrown away and asked again
   * of a table rebuilt from git.
   */
  async query<T>(tip: string, question: (table: HistoryTable) => T): Promise<T> {
    const table = await this.at(tip, false);
    const answer = table.bad ? undefined : question(table);
    if (!table.bad) return answer as T;
    memo.delete(this.commonDir);
    return question(await this.at(tip, true));
  }

  /** The facts the charts read, at `tip`. */
  facts(tip: string): Promise<HistoryFacts> {
    return this.query(tip, (t) => t.facts());
  }

  private async at(tip: string, rebuild: boolean): Promise<HistoryTable> {
    const held = rebuild ? undefined : memo.get(this.commonDir);
    const saved = rebuild ? null : (held ?? fromDisk(this.commonDir));
    if (saved?.tip === tip) return this.keep(saved, false);
    if (saved) {
      const run = journalRun(this.journal(tip), saved.tip, tip);
      if (run && saved.extend(tip, run) && !saved.bad) return this.keep(saved, saved.unsaved >= RESAVE_AFTER_JOURNAL);
    }
    const listed = await gitRun(this.commonDir, saved?.bad ? null : (saved?.tip ?? null), tip, this.env, (oid) =>
      Boolean(saved && !saved.bad && saved.findRow(oid) >= 0),
    );
    if (listed) {
      const table = listed.complete && saved && !saved.bad ? saved : new HistoryTable(emptyHistory());
      if (table.extend(tip, listed.commits) && !table.bad) return this.keep(table, true);
    }
    // No git here (or a damaged file): the commit objects, read down to what the table has.
    const table = saved && !saved.bad ? saved : new HistoryTable(emptyHistory());
    const commits = await objectRun(this.db, tip, (oid) => table.findRow(oid) >= 0);
    if (!table.extend(tip, commits) || table.bad)
      throw new GitError("E_GIT_READ_OBJECT", `Cannot read the state's commit ${tip}`, "pantheon doctor");
    return this.keep(table, true);
  }

  /** Forgets this process's table (the files go with the read cache's). */
  drop(): void {
    memo.delete(this.commonDir);
  }

  private keep(table: HistoryTable, save: boolean): HistoryTable {
    memo.set(this.commonDir, table);
    // A file in an earlier format is written again at once, in the current one (the same rows).
    if ((save || table.legacy) && table.count > 0) {
      saveHistory(this.commonDir, table.arrays());
      table.legacy = false;
    }
    return table;
  }
}

function fromDisk(commonDir: string): HistoryTable | null {
  const a = loadHistory(commonDir);
  return a ? new HistoryTable(a) : null;
}
