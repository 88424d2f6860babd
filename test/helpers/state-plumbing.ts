import { execFileSync } from "node:child_process";
import { testEnv } from "./env.js";

/**
 * Writes refs/coordination/main with git plumbing only (`hash-object`, `mktree`, `commit-tree`,
 * `update-ref`), as a newer Pantheon, an older one or a hand edit would: nothing of Pantheon's
 * own codec is involved, so a test sees exactly what another writer would leave.
 */
const REF = "refs/coordination/main";

function gitIn(dir: string, args: string[], input?: string): string {
  return execFileSync("git", args, {
    cwd: dir,
    env: testEnv(),
    encoding: "utf8",
    input,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** A record's new content: JSON text, a function of the record as stored, or null to delete the path. */
export type StateEdit = string | null | ((stored: any) => unknown);

function editTree(dir: string, tree: string | null, edits: Map<string, string | null>): string {
  const entries = new Map<string, string>();
  if (tree)
    for (const line of gitIn(dir, ["ls-tree", "-z", tree]).split("\0").filter(Boolean))
      entries.set(line.split("\t")[1]!, line.split("\t")[0]!);
  const below = new Map<string, Map<string, string | null>>();
  for (const [path, text] of edits) {
    const slash = path.indexOf("/");
    if (slash >= 0) {
      const name = path.slice(0, slash);
      below.set(name, (below.get(name) ?? new Map()).set(path.slice(slash + 1), text));
    } else if (text === null) entries.delete(path);
    else entries.set(path, `100644 blob ${gitIn(dir, ["hash-object", "-w", "--stdin"], text).trim()}`);
  }
  for (const [name, sub] of below) {
    const existing = entries.get(name)?.split(" ");
    const subtree = editTree(dir, existing?.[1] === "tree" ? existing[2]! : null, sub);
    entries.set(name, `040000 tree ${subtree}`);
  }
  const lines = [...entries].map(([name, meta]) => `${meta}\t${name}\n`).join("");
  return gitIn(dir, ["mktree"], lines).trim();
}

/** Canonical JSON as Pantheon stores it (sorted keys, 2-space indent, newline), built here independently. */
export function storedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

/** A file of the state as real git reads it, parsed (null when absent). */
export function stateJson(dir: string, path: string, at = REF): any {
  try {
    return JSON.parse(gitIn(dir, ["cat-file", "-p", `${at}:${path}`]));
  } catch {
    return null;
  }
}

/** One new commit over the ref's tip with the edits applied; returns its id. */
export function rewriteState(
  dir: string,
  edits: Record<string, StateEdit>,
  message = "written by another version",
): string {
  const parent = gitIn(dir, ["rev-parse", REF]).trim();
  const texts = new Map<string, string | null>();
  for (const [path, edit] of Object.entries(edits)) {
    texts.set(path, typeof edit === "function" ? storedJson(edit(stateJson(dir, path))) : edit);
  }
  const tree = editTree(dir, gitIn(dir, ["rev-parse", `${REF}^{tree}`]).trim(), texts);
  const commit = gitIn(dir, ["commit-tree", tree, "-p", parent, "-m", message]).trim();
  gitIn(dir, ["update-ref", REF, commit, parent]);
  return commit;
}

/** Paths the commits between two ids changed (`git diff-tree`). */
export function changedBetween(dir: string, from: string, to: string): string[] {
  return gitIn(dir, ["diff-tree", "-r", "--name-only", from, to]).split("\n").filter(Boolean);
}
