/**
 * Git's object database: loose objects are read and written here, and only a miss (a packed
 * object, after `git gc` or a fetch) loads isomorphic-git, lazily, because importing it costs
 * ~100 ms of start-up that the common path must not pay. Objects are written as stored zlib
 * streams and hashed in JavaScript, so a command loads neither node:zlib nor node:crypto
 * (~6 ms together); I/O is synchronous, as a CLI reading a few small files wants it.
 */
import * as fs from "node:fs";
import { lazyRequire, nodeCrypto } from "../lazy-require.js";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { randomBytes } from "../random-bytes.js";
import { sha1Hex } from "./sha1.js";
import { storedDeflate, storedInflate } from "./stored-deflate.js";

/** After this many objects hashed, node:crypto is worth loading (an import hashes thousands). */
const JS_HASH_LIMIT = 200;
const JS_HASH_MAX_BYTES = 12 * 1024;

/** No object of the state needs more; larger ones are refused rather than inflated. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;
import { RepositoryError } from "../errors.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "./shared-perm.js";

/** How far ahead new loose objects are dated (see storeLoose): longer than any command takes. */
const FUTURE_MTIME_MS = 10 * 60_000;
/** A process that keeps writing the same object (retries) freshens it again after this long. */
const REFRESH_AFTER_MS = 60_000;

export type ObjectType = "blob" | "tree" | "commit" | "tag";

export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

const OID = /^[0-9a-f]{40}$/;
const TYPES = new Set<string>(["blob", "tree", "commit", "tag"]);
// git knows the empty tree without storing it (`git cat-file -t 4b825dc` works in a fresh repo).
export const EMPTY_TREE_OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** A loose object's bytes: ours are stored streams; git's own are compressed (node:zlib, loaded then). */
function inflate(oid: string, raw: Buffer): Buffer {
  const bad = () => new RepositoryError("E_GIT", `Corrupt git object ${oid} (bad zlib data)`, "git fsck");
  let stored: Buffer | null;
  try {
    stored = storedInflate(raw, MAX_OBJECT_BYTES);
  } catch {
    throw bad();
  }
  if (stored) return stored;
  const zlib = lazyRequire("node:zlib") as typeof import("node:zlib");
  try {
    // maxOutputLength bounds a zlib bomb in an object fetched from someone else's clone.
    return zlib.inflateSync(raw, { maxOutputLength: MAX_OBJECT_BYTES });
  } catch {
    throw bad();
  }
}

/** A pack could not be read (replaced or deleted under a concurrent repack): looked up again. */
class PackReadError extends Error {}

/** Lookups of one object before it is called missing: each lists the pack directory afresh. */
const LOOKUP_ATTEMPTS = 4;

export class ObjectDb {
  readonly objectsDir: string;
  private readonly memo = new Map<string, GitObject>();
  // One isomorphic-git cache per ObjectDb: it holds parsed pack indexes, so sharing it means each
  // .idx is read once per invocation instead of once per object.
  private packCache: object = {};
  private alternates: string[] | undefined;

  constructor(readonly commonDir: string) {
    this.objectsDir = join(commonDir, "objects");
  }

  /** Computes an object id: sha1 of "<type> <length>\0<content>". */
  hash(type: ObjectType, content: Buffer): string {
    const header = `${type} ${content.length}\0`;
    // Cold JavaScript hashes ~5 KB a millisecond: a 20 KB shard tree (50,000 tasks) or an import
    // is worth loading node:crypto for.
    if (++this.hashed > JS_HASH_LIMIT || content.length > JS_HASH_MAX_BYTES) return nodeCrypto().createHash("sha1").update(header).update(content).digest("hex");
    return sha1Hex(Buffer.concat([Buffer.from(header, "latin1"), content]));
  }

  private hashed = 0;

  /**
   * Reads an object, loose first, then from packs; a missing object is an E_GIT RepositoryError.
   * A concurrent `git gc` or `git repack -ad` moves objects while this looks (a loose file packed
   * and pruned, a pack replaced by a new one, a pack index listed just before its pack was
   * deleted): every such miss or failure is looked up again with a fresh listing of the pack
   * directory, as git's own reprepare_packed_git does, before an object is called missing.
   */
  async read(oid: string): Promise<GitObject> {
    const known = this.memo.get(oid);
    if (known) return known;
    if (!OID.test(oid)) throw new RepositoryError("E_GIT", `Invalid object id ${JSON.stringify(oid)}`, "git fsck");
    // Not memoised, so that write("tree", empty) still stores it: fsck's connectivity check wants it.
    if (oid === EMPTY_TREE_OID) return { type: "tree", content: Buffer.alloc(0) };
    let failure: unknown = null;
    for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        // Forget every pack index read so far: the pack directory is listed afresh.
        this.packCache = {};
        await new Promise((r) => setImmediate(r));
      }
      try {
        const obj = (await this.readLoose(oid)) ?? (await this.readPacked(oid));
        if (obj) {
          this.memo.set(oid, obj);
          return obj;
        }
        failure = null;
      } catch (err) {
        // Only a pack that failed to read may be a file that moved under a concurrent repack;
        // a corrupt loose object is corrupt however often it is read.
        if (!(err instanceof PackReadError)) throw err;
        failure = err;
      }
    }
    if (failure) throw new RepositoryError("E_GIT", `Cannot read git object ${oid}: the object database kept changing or is damaged`, "retry the command; if it persists: git fsck");
    throw new RepositoryError("E_GIT", `Missing git object ${oid}`, "git fsck; pantheon doctor --recover restores a state ref that points at lost objects");
  }

  /**
   * Stores an object as a loose file (temp file + rename, so a crash never leaves a torn object)
   * and returns its id. Every object written is remembered until `verifyWritten`, which a writer
   * calls once the ref names them (DESIGN §2.3: a concurrent prune may have removed them).
   */
  async write(type: ObjectType, content: Buffer): Promise<string> {
    const oid = this.hash(type, content);
    this.pending.set(oid, { type, content });
    const own = this.written.get(oid);
    // Written (or freshened) by this process lately: its future mtime still holds.
    if (own !== undefined && Date.now() - own < REFRESH_AFTER_MS) return oid;
    this.storeLoose(oid, type, content);
    this.written.set(oid, Date.now());
    if (!this.memo.has(oid)) this.memo.set(oid, { type, content });
    return oid;
  }

  /**
   * Checks that every object written since the last call is still on disk as a loose object,
   * and writes again any that is not (a `git gc --prune=now` that judged reachability before
   * the ref moved deletes them). A packed copy would do too, but looking one up costs more than
   * writing the few bytes again; `git gc` later drops the duplicate. Returns what was rewritten.
   */
  verifyWritten(): string[] {
    const rewritten: string[] = [];
    for (const [oid, obj] of this.pending) {
      if (fs.existsSync(this.loosePath(this.objectsDir, oid))) continue;
      this.written.delete(oid);
      this.storeLoose(oid, obj.type, obj.content);
      this.written.set(oid, Date.now());
      rewritten.push(oid);
    }
    this.pending.clear();
    return rewritten;
  }

  /** Forgets the objects written so far without checking them (the ref did not move). */
  discardWritten(): void {
    this.pending.clear();
  }

  /** Objects written since the last verifyWritten/discardWritten, with their bytes. */
  private readonly pending = new Map<string, { type: ObjectType; content: Buffer }>();
  /** When this process last wrote or freshened each object. */
  private readonly written = new Map<string, number>();

  /**
   * Writes the loose file, or freshens an existing one, dated FUTURE_MTIME_MS ahead: `git prune`
   * keeps any object whose mtime is after its expiry (prune.c: `st.st_mtime > expire`), so even
   * a `--prune=now` that computed reachability before this command moved the ref cannot delete
   * what it wrote. An object freshened here is one git may otherwise consider old garbage.
   */
  private storeLoose(oid: string, type: ObjectType, content: Buffer): void {
    const path = this.loosePath(this.objectsDir, oid);
    const future = (Date.now() + FUTURE_MTIME_MS) / 1000;
    try {
      fs.utimesSync(path, future, future);
      return; // already there (ours, git's, or identical bytes from another writer)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
        // Not ours to touch (another user's file in a shared repository): it exists, which is what matters.
        if (fs.existsSync(path)) return;
      }
    }
    // Same directory as the target so rename() is atomic; the tmp_obj_ prefix is git's own,
    // so `git gc` (prune) sweeps temp files orphaned by a kill.
    const tmp = join(dirname(path), `tmp_obj_${process.pid}_${randomBytes(6).toString("hex")}`);
    const data = storedDeflate(Buffer.concat([Buffer.from(`${type} ${content.length}\0`, "latin1"), content]));
    const perm = sharedPermOf(this.commonDir);
    try {
      mkdirShared(dirname(path), perm);
      // 0444 like git: objects are immutable, and a read-only file says so to other tools.
      const fd = fs.openSync(tmp, "wx", 0o444);
      try {
        fs.writeSync(fd, data);
        fs.futimesSync(fd, future, future);
      } finally {
        fs.closeSync(fd);
      }
      adjustSharedPerm(tmp, perm);
      // Two writers of the same object race harmlessly: both files hold identical bytes.
      fs.renameSync(tmp, path);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // never created
      }
      throw new RepositoryError("E_GIT", `Cannot write git object ${oid}: ${(err as Error).message}`, "check permissions on .git/objects");
    }
  }

  private loosePath(objectsDir: string, oid: string): string {
    return join(objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  private async readLoose(oid: string): Promise<GitObject | null> {
    for (const dir of [this.objectsDir, ...this.alternateDirs()]) {
      let raw: Buffer;
      try {
        raw = fs.readFileSync(this.loosePath(dir, oid));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw err;
      }
      return this.unwrap(oid, inflate(oid, raw));
    }
    return null;
  }

  private unwrap(oid: string, buf: Buffer): GitObject {
    const space = buf.indexOf(0x20);
    const nul = buf.indexOf(0);
    const type = buf.subarray(0, Math.max(space, 0)).toString("latin1");
    const len = Number(buf.subarray(space + 1, nul).toString("latin1"));
    if (space < 0 || nul < space || !TYPES.has(type) || len !== buf.length - nul - 1) {
      throw new RepositoryError("E_GIT", `Corrupt git object ${oid}`, "git fsck");
    }
    return { type: type as ObjectType, content: buf.subarray(nul + 1) };
  }

  private async readPacked(oid: string): Promise<GitObject | null> {
    // Its Node entry is CommonJS: in the ESM bundle the API may sit on `default`.
    const mod = (await import("isomorphic-git")) as typeof import("isomorphic-git") & { default?: typeof import("isomorphic-git") };
    const git = typeof mod.readObject === "function" ? mod : mod.default!;
    // isomorphic-git appends /objects to gitdir and knows nothing of alternates, so ask it once
    // per object store; an alternate is an objects dir, whose parent plays the gitdir.
    for (const objectsDir of [this.objectsDir, ...this.alternateDirs()]) {
      let r: Awaited<ReturnType<typeof git.readObject>>;
      try {
        r = await git.readObject({ fs, gitdir: dirname(objectsDir), oid, format: "content", cache: this.packCache });
      } catch (err) {
        if ((err as { code?: string }).code === "NotFoundError") continue;
        // isomorphic-git's own words name its internals ("GitPackIndex", "packfile"): they stay
        // here, and the caller retries with a fresh listing or reports a coded error.
        throw new PackReadError();
      }
      if (!TYPES.has(r.type) || !(r.object instanceof Uint8Array)) continue;
      const content = Buffer.from(r.object.buffer, r.object.byteOffset, r.object.byteLength);
      return { type: r.type as ObjectType, content };
    }
    return null;
  }

  /** objects/info/alternates: one objects dir per line, relative ones relative to our objects dir. */
  private alternateDirs(): string[] {
    if (this.alternates) return this.alternates;
    let text = "";
    try {
      text = fs.readFileSync(join(this.objectsDir, "info", "alternates"), "utf8");
    } catch {
      // none: the usual case
    }
    this.alternates = text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => (isAbsolute(l) ? l : resolve(this.objectsDir, l)));
    return this.alternates;
  }
}
