/**
 * isomorphic-git as the object engine (DESIGN §2.2): it inflates and checks loose objects against
 * their ids, parses trees and commits, encodes them, hashes and deflates what is written. Loaded
 * lazily: object-db.ts imports this module the first time a command reads or writes an object
 * through the library, and the build bundles only the two functions used, tree-shaken
 * (scripts/build.mjs). Everything it reads and writes goes through engine-fs.ts.
 */
import { Errors, readObject, writeObject } from "isomorphic-git";
import { GitError, PantheonError } from "../../errors.js";
import { type CommitData, type Signature, withoutCrud } from "./commit-data.js";
import type { EngineFs } from "./engine-fs.js";
import type { TreeEntry } from "./tree-entry.js";

export type ObjectType = "blob" | "tree" | "commit" | "tag";

/** The library's identity: its `timezoneOffset` counts minutes west of UTC, as Date#getTimezoneOffset. */
interface LibSignature {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** Negated, but a zone of 0 stays +0 (the library writes -0 as "-0000"). */
const flip = (minutes: number): number => (minutes === 0 ? 0 : -minutes);

/** As git writes an identity: crud trimmed, the delimiters \n < > dropped (the library writes what it is given). */
const toLib = (s: Signature): LibSignature => ({
  name: withoutCrud(s.name),
  email: withoutCrud(s.email),
  timestamp: Math.floor(s.timestamp),
  timezoneOffset: flip(s.tzOffsetMinutes),
});

const fromLib = (s: LibSignature | undefined, oid: string, which: string): Signature => {
  if (!s || !Number.isFinite(s.timestamp)) throw corrupt(oid, `no ${which}`);
  return { name: s.name, email: s.email, timestamp: s.timestamp, tzOffsetMinutes: flip(s.timezoneOffset) || 0 };
};

function corrupt(oid: string, why: string): GitError {
  return new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt git object ${oid} (${why})`, "git fsck");
}

/**
 * What the library threw while reading `oid`, as Pantheon's error. Ours (a bound reached, a
 * tree over its size) and the system's (a file that cannot be read) pass as they are.
 */
function readFailure(err: unknown, oid: string): Error {
  if (err instanceof PantheonError || (err instanceof Error && "syscall" in err)) return err;
  if (err instanceof Errors.NotFoundError)
    return new GitError(
      "E_GIT_READ_OBJECT",
      `Missing git object ${oid}`,
      "git fsck; pantheon doctor --recover restores a state ref that points at lost objects",
    );
  // The library's messages are its own (a SHA check, a length, a mode it does not know, an
  // unsafe entry name, pako's words): one line of them, for the hint's git fsck to explain.
  return corrupt(
    oid,
    String((err as Error)?.message ?? err)
      .split("\n")[0]!
      .slice(0, 200),
  );
}

interface Where {
  fs: EngineFs;
  gitdir: string;
  cache: object;
}

/** An object's type and content, checked against its id. */
export async function readContent(at: Where, oid: string): Promise<{ type: ObjectType; content: Buffer }> {
  try {
    const r = await readObject({ ...at, oid, format: "content" });
    return { type: r.type as ObjectType, content: Buffer.from(r.object as Uint8Array) };
  } catch (err) {
    throw readFailure(err, oid);
  }
}

/** A tree's entries (modes as the library gives them: "040000" for a subtree); null when `oid` is not a tree. */
export async function readTreeEntries(at: Where, oid: string): Promise<TreeEntry[] | null> {
  let r: Awaited<ReturnType<typeof readObject>>;
  try {
    r = await readObject({ ...at, oid, format: "parsed" });
  } catch (err) {
    throw readFailure(err, oid);
  }
  if (r.type !== "tree") return null;
  return (r.object as Array<{ mode: string; path: string; oid: string }>).map((e) => ({
    mode: e.mode,
    name: e.path,
    oid: e.oid,
  }));
}

/** A commit's tree, parents, identities and message. */
export async function readCommitData(at: Where, oid: string): Promise<CommitData> {
  let r: Awaited<ReturnType<typeof readObject>>;
  try {
    r = await readObject({ ...at, oid, format: "parsed" });
  } catch (err) {
    throw readFailure(err, oid);
  }
  if (r.type !== "commit")
    throw new GitError("E_GIT_CORRUPT_OBJECT", `Object ${oid} is a ${r.type}, not a commit`, "pantheon doctor");
  const c = r.object as {
    tree: string;
    parent: string[];
    author?: LibSignature;
    committer?: LibSignature;
    message: string;
  };
  return {
    tree: c.tree,
    parents: c.parent,
    author: fromLib(c.author, oid, "author"),
    committer: fromLib(c.committer, oid, "committer"),
    message: c.message,
  };
}

/** Writes a blob (or any object given as its content); returns its id. */
export function writeContent(at: Omit<Where, "cache">, type: ObjectType, content: Uint8Array): Promise<string> {
  return writeObject({ ...at, type, object: content, format: "content" });
}

/** Writes a tree of `entries` (in any order: the library sorts them as git does); returns its id. */
export function writeTreeEntries(at: Omit<Where, "cache">, entries: readonly TreeEntry[]): Promise<string> {
  const object = entries.map((e) => ({ mode: e.mode, path: e.name, oid: e.oid }));
  return writeObject({ ...at, type: "tree", object: object as never, format: "parsed" });
}

/** Writes a commit; returns its id. */
export function writeCommitData(at: Omit<Where, "cache">, c: CommitData): Promise<string> {
  const object = {
    tree: c.tree,
    parent: c.parents,
    author: toLib(c.author),
    committer: toLib(c.committer),
    message: c.message,
  };
  return writeObject({ ...at, type: "commit", object: object as never, format: "parsed" });
}
