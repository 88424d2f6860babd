import type { HistoryFacts } from "../../domain/history-charts.js";

// Part of the port (store/store.ts): types only, importing nothing from the store's rooms.

/** One commit of the state ref, as `pantheon log` and `task history` read it. */
export interface CommitEntry {
  oid: string;
  parents: string[];
  author: string;
  /** ISO-8601 author date. */
  date: string;
  summary: string;
  trailers: Record<string, string[]>;
}

/** The state ref's history, as `pantheon log`, `task history`, the dashboard and the charts read it. */
export interface HistoryStore {
  /**
   * Commits of the state ref, newest first (all parents, by date, as `git log` orders them);
   * `record` keeps those that touched it (`tasks/7`): named by their Pantheon-Records trailer,
   * or, for a merge, changed against its first parent. Served by the history index
   * (DESIGN §2.4a): the cost follows the commits returned, not the history's length.
   */
  log(o: { limit?: number; record?: string | readonly string[] }): Promise<CommitEntry[]>;
  /** What the charts read of the whole history (closings per day, each task's facts), from the history index. */
  historyFacts(): Promise<HistoryFacts>;
}
