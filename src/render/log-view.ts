/** A commit of the state ref as `pantheon log` reads it (the store's CommitEntry). */
interface LoggedCommit {
  oid: string;
  parents: string[];
  author: string;
  date: string;
  summary: string;
  trailers: Record<string, string[]>;
}

export interface LogEntryView {
  commit: string;
  date: string;
  author: string;
  /** The persona or Director from the Pantheon-Actor trailer (the author for commits made by git). */
  actor: string;
  op: string | null;
  mission: string | null;
  records: string;
  summary: string;
  merge: boolean;
}

export function logEntryView(e: LoggedCommit): LogEntryView {
  return {
    commit: e.oid,
    date: e.date,
    author: e.author,
    actor: e.trailers["Pantheon-Actor"]?.[0] ?? e.author,
    op: e.trailers["Pantheon-Op"]?.[0] ?? null,
    mission: e.trailers["Pantheon-Mission"]?.[0] ?? null,
    records: e.trailers["Pantheon-Records"]?.[0] ?? "",
    summary: e.summary,
    merge: e.parents.length > 1,
  };
}
