import type { CommitInfo } from "../store.js";
import { recordKey } from "./layout.js";
import { formatRecordKeys } from "./records-trailer.js";

/**
 * The commit message of DESIGN §2.2: a summary line, then git trailers that `pantheon log`,
 * `task history` and the dashboard read back. Newlines in the summary would forge trailers, so
 * the summary is flattened to one line; so are NEL and the line and paragraph separators, which
 * git keeps as text but other readers of the log break lines at.
 */
export function commitMessage(info: CommitInfo, changedPaths: Iterable<string>): string {
  const summary = info.summary.replace(/[\r\n\t\x00-\x1f\x7f\x85\u2028\u2029]+/g, " ").slice(0, 200);
  const records = formatRecordKeys(recordKeys(changedPaths));
  const trailers = [
    `Pantheon-Op: ${info.op}`,
    `Pantheon-Actor: ${oneLine(info.actor)}`,
    ...(info.mission ? [`Pantheon-Mission: ${oneLine(info.mission)}`] : []),
    ...(records !== "" ? [`Pantheon-Records: ${records}`] : []),
  ];
  return `${summary}\n\n${trailers.join("\n")}\n`;
}

/** One key per path, as they are read: an import's 100,000 paths are never copied into a list. */
function* recordKeys(paths: Iterable<string>): Iterable<string> {
  for (const p of paths) yield recordKey(p);
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\x00-\x1f\x7f\x85\u2028\u2029]+/g, " ");
}
