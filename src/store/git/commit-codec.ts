/**
 * Git commit objects: headers ("tree", "parent"*, "author", "committer", then anything else such
 * as multi-line "gpgsig" or "encoding"), a blank line, the message. Unknown headers are skipped on
 * parse and never written, so re-encoding a signed commit yields a different (unsigned) commit.
 */
import { GitError } from "../../errors.js";

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

/** Decodes a commit object's content, tolerating extra and multi-line headers. */
export function parseCommit(buf: Buffer): CommitData {
  const end = buf.indexOf("\n\n");
  const head = buf.toString("utf8", 0, end < 0 ? buf.length : end);
  const fields = new Map<string, string[]>();
  for (const line of head.split("\n")) {
    // A line starting with a space continues the previous header (gpgsig, mergetag); none we read.
    if (line === "" || line.startsWith(" ")) continue;
    const sp = line.indexOf(" ");
    const key = sp < 0 ? line : line.slice(0, sp);
    fields.set(key, [...(fields.get(key) ?? []), sp < 0 ? "" : line.slice(sp + 1)]);
  }
  const one = (key: string): string => {
    const v = fields.get(key)?.[0];
    if (v === undefined)
      throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt commit object: no ${key} header`, "git fsck");
    return v;
  };
  // git stores the message as bytes in the declared encoding; only Latin-1 is worth decoding here.
  const enc = fields.get("encoding")?.[0]?.toLowerCase();
  const latin1 = enc !== undefined && /^(iso-?8859-1|latin-?1)$/.test(enc);
  const message = end < 0 ? "" : buf.toString(latin1 ? "latin1" : "utf8", end + 2);
  return {
    tree: one("tree"),
    parents: fields.get("parent") ?? [],
    author: parseSignature(one("author")),
    committer: parseSignature(one("committer")),
    message,
  };
}

/** Encodes a commit; identities are sanitised as git does and a non-empty message ends with "\n". */
export function encodeCommit(c: CommitData): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatSignature(c.author)}`, `committer ${formatSignature(c.committer)}`);
  const message = c.message === "" || c.message.endsWith("\n") ? c.message : `${c.message}\n`;
  return Buffer.from(`${lines.join("\n")}\n\n${message}`, "utf8");
}

function parseSignature(s: string): Signature {
  // git's split_ident_line: the first "<", the first ">" after it; the name may be empty.
  const lt = s.indexOf("<");
  const gt = s.indexOf(">", lt + 1);
  if (lt < 0 || gt < 0) throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt commit identity: ${s}`, "git fsck");
  const when = /^\s*(\d+)\s+([+-])(\d\d)(\d\d)/.exec(s.slice(gt + 1));
  // "-0000" (git's "unknown zone") would give -0; normalise so equal signatures compare equal.
  const tz = when ? (Number(when[3]) * 60 + Number(when[4])) * (when[2] === "-" ? -1 : 1) || 0 : 0;
  return {
    name: s.slice(0, lt).trim(),
    email: s.slice(lt + 1, gt),
    timestamp: when ? Number(when[1]) : 0,
    tzOffsetMinutes: tz,
  };
}

function formatSignature(sig: Signature): string {
  const abs = Math.abs(sig.tzOffsetMinutes);
  const tz = `${sig.tzOffsetMinutes < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`;
  return `${withoutCrud(sig.name)} <${withoutCrud(sig.email)}> ${Math.floor(sig.timestamp)} ${tz}`;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

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
