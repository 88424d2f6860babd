/**
 * A commit as Pantheon handles it, and the two rules of git's that the object engine
 * (isomorphic-git, object-engine.ts, which parses and encodes commits) does not apply: the
 * identity git writes (crud trimmed) and the trailers it reads from a message.
 */

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes east of UTC: "+0100" is 60, "-0530" is -330 (Date#getTimezoneOffset negated). */
  tzOffsetMinutes: number;
}

export interface CommitData {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

/** git's strbuf_addstr_without_crud: trim "crud" at both ends, drop the delimiters \n < > anywhere. */
export function withoutCrud(s: string): string {
  return s.replace(/^[\0- .,:;<>"\\']+|[\0- .,:;<>"\\']+$/g, "").replace(/[\n<>]/g, "");
}

/** Reads git-style trailers ("Key: value") from the message's last paragraph, by key as written. */
export function parseTrailers(message: string): Record<string, string[]> {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  // A "---" line starts a patch (format-patch mail); git stops looking for trailers there.
  const patch = lines.findIndex((l) => /^---(\s|$)/.test(l));
  if (patch >= 0) lines.length = patch;
  while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
  // The first paragraph is the title and is never a trailer block.
  const titleEnd = lines.findIndex((l) => l.trim() === "");
  if (titleEnd < 0) return {};
  let start = lines.length;
  while (start > titleEnd + 1 && lines[start - 1]?.trim() !== "") start--;
  const found: Array<[string, string]> = [];
  let others = 0;
  let gitGenerated = false;
  for (const line of lines.slice(start)) {
    const m = /^([A-Za-z0-9-]+)[ \t]*:[ \t]*(.*?)\s*$/.exec(line);
    const last = found.at(-1);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      found.push([m[1], m[2]]);
      if (/^signed-off-by$/i.test(m[1])) gitGenerated = true;
    } else if (/^[ \t]/.test(line) && last) {
      last[1] = `${last[1]} ${line.trim()}`.trim(); // folded value: git unfolds with one space
    } else {
      if (line.startsWith("(cherry picked from commit ")) gitGenerated = true;
      others++;
    }
  }
  // git's rule: all trailers, or at least 25% trailers with one line git itself generates.
  if (found.length === 0 || (others > 0 && !(gitGenerated && found.length * 3 >= others))) return {};
  const out: Record<string, string[]> = {};
  for (const [k, v] of found) (out[k] ??= []).push(v);
  return out;
}
