/**
 * Git's object database: loose objects are read and written here; a miss (a packed object,
 * after `git gc` or a fetch) is read from the packs by pack-reader.ts, which loads node:zlib
 * then (~1.3 ms) and nothing else. Objects are written as stored zlib streams, so a write loads
 * no node:zlib; the first kilobyte hashed is hashed in JavaScript, the rest by node:crypto (see
 * hash()). I/O is synchronous, as a CLI reading a few small files wants it.
 */
import * as fs from "node:fs";
import { lazyRequire, nodeCrypto } from "../../lazy-require.js";
import { isAbsolute, join, resolve } from "node:path";
import { catFileBatch } from "./cat-file-batch.js";
import { PackReader } from "./pack-reader.js";
import { sha1Hex } from "./sha1.js";
import { storedInflate } from "./stored-deflate.js";

/** Past this many bytes hashed in a command, node:crypto hashes (sha1.ts before). */
const JS_HASH_MAX_BYTES = 1024;

/** No object of the state needs more; larger ones are refused rather than inflated. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;
import { GitError, PackReadError } from "../../errors.js";
import { KeptLookup } from "./kept-packs.js";
import { LoosePacker, type PackerOptions } from "./loose-packer.js";
import { KEEP_DIR, LooseWriter } from "./loose-writer.js";

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
  const bad = () => new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt git object ${oid} (bad zlib data)`, "git fsck");
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

/** Lookups of one object before it is called missing: each lists the pack directory afresh. */
const LOOKUP_ATTEMPTS = 6;

export class ObjectDb {
  readonly objectsDir: string;
  private readonly memo = new Map<string, GitObject>();
  /** The pack readers, one per objects dir: each index is read once per command. */
  private readonly packs = new Map<string, PackReader>();
  /** Set once a pack could not be read here but git could read it. */
  private askGit = false;
  private alternates: string[] | undefined;

  /** `packing`: a store's, whose mutations pack the keep dir's loose objects (loose-packer.ts). */
  constructor(
    readonly commonDir: string,
    packing?: PackerOptions,
  ) {
    this.objectsDir = join(commonDir, "objects");
    this.writer = new LooseWriter(this.objectsDir, commonDir);
    this.packer = packing && new LoosePacker(this.objectsDir, commonDir, this.writer.keepDir, packing);
  }

  /** Computes an object id: sha1 of "<type> <length>\0<content>". */
  hash(type: ObjectType, content: Buffer): string {
    const header = `${type} ${content.length}\0`;
    // Cold JavaScript hashes ~5 KB a millisecond, and node:crypto loads in ~0.3 ms (with Node's
    // code cache: no V8 flag, see the launcher): past 1 KB hashed in all, crypto is cheaper.
    this.hashedBytes += content.length;
    if (this.hashedBytes > JS_HASH_MAX_BYTES)
      return nodeCrypto().createHash("sha1").update(header).update(content).digest("hex");
    return sha1Hex(Buffer.concat([Buffer.from(header, "latin1"), content]));
  }

  private hashedBytes = 0;

  /**
   * Reads an object, loose first, then from packs; a missing object is a GitError (E_GIT_READ_OBJECT).
   * A concurrent `git gc` or `git repack -ad` moves objects while this looks (a loose file packed
   * and pruned, a pack replaced by a new one, a pack index listed just before its pack was
   * deleted): every such miss or failure is looked up again with a fresh listing of the pack
   * directory, as git's own reprepare_packed_git does, before an object is called missing.
   */
  async read(oid: string): Promise<GitObject> {
    const known = this.memo.get(oid);
    if (known) return known;
    if (!OID.test(oid)) throw new GitError("E_GIT_READ_OBJECT", `Invalid object id ${JSON.stringify(oid)}`, "git fsck");
    // Not memoised, so that write("tree", empty) still stores it: fsck's connectivity check wants it.
    if (oid === EMPTY_TREE_OID) return { type: "tree", content: Buffer.alloc(0) };
    let failure: unknown = null;
    if (this.askGit) {
      const obj = (await this.readLoose(oid)) ?? (await this.readWithGit(oid));
      if (obj) {
        this.memo.set(oid, obj);
        return obj;
      }
    }
    for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        // Forget every pack index read so far: the pack directory is listed afresh, after a
        // moment for the repack that replaced it to finish deleting the old pack's files.
        for (const reader of this.packs.values()) reader.forget();
        await new Promise((r) => setTimeout(r, attempt * attempt * 5));
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
        // A reason (a delta cycle, a size over the bound) is in the pack's bytes, not a moment
        // of a repack: the same bytes give the same answer, so looking again would only wait.
        if (err.message) break;
      }
    }
    if (failure) {
      // Some pack keeps failing here (a stale index whose pack is gone, a format this reader
      // does not know, a corrupt or hostile entry): git itself is the judge of whether the
      // object is there, within its bounds (a delta cycle sends it round for ever).
      const why = (failure as PackReadError).message;
      let viaGit: GitObject | null;
      try {
        viaGit = await this.readWithGit(oid);
      } catch (err) {
        if (!(err instanceof GitError) || !why) throw err;
        throw new GitError(err.code, `${err.message}; Pantheon's pack reader: ${why}`, err.hint);
      }
      if (viaGit) {
        // The rest of this command's packed reads go to git straight away.
        this.askGit = true;
        this.memo.set(oid, viaGit);
        return viaGit;
      }
      throw new GitError(
        why ? "E_GIT_CORRUPT_OBJECT" : "E_GIT_READ_OBJECT",
        `Cannot read git object ${oid}: ${why || "a pack of the object database cannot be read"}`,
        "git fsck (then git repack -ad to rewrite the packs)",
      );
    }
    throw new GitError(
      "E_GIT_READ_OBJECT",
      `Missing git object ${oid}`,
      "git fsck; pantheon doctor --recover restores a state ref that points at lost objects",
    );
  }

  /**
   * Stores an object as a loose file (temp file + rename, so a crash never leaves a torn object;
   * a second name in the keep dir, so a concurrent prune cannot take it: loose-writer.ts) and
   * returns its id. Every object written is remembered until `verifyWritten`, which a writer
   * calls once the ref names them.
   */
  async write(type: ObjectType, content: Buffer): Promise<string> {
    const oid = this.hash(type, content);
    this.pending.set(oid, { type, content });
    // Written by this process already (a retry re-writes its blobs): it has both names.
    if (this.written.has(oid)) return oid;
    this.writer.store(oid, type, content);
    this.written.add(oid);
    if (!this.memo.has(oid)) this.memo.set(oid, { type, content });
    return oid;
  }

  /**
   * After the swap (DESIGN §2.3): every object written since the last call must be in the main
   * store; one a concurrent prune deleted in between is linked back from its second name (or
   * written again: we still hold its bytes), unless another process packed it meanwhile.
   * Returns what was restored. Then, now and then, old second names are dropped, and loose
   * objects are packed when there are too many.
   */
  verifyWritten(): string[] {
    const restored: string[] = [];
    const kept = new KeptLookup(this.objectsDir);
    for (const [oid, obj] of this.pending)
      if (this.writer.heal(oid, obj.type, obj.content, (o) => kept.has(o))) restored.push(oid);
    this.pending.clear();
    const swept = this.writer.sweep();
    this.packer?.afterSwap(swept !== null);
    return restored;
  }

  /** Forgets the objects written so far without checking them (the ref did not move). */
  discardWritten(): void {
    this.pending.clear();
  }

  private readonly writer: LooseWriter;
  private readonly packer: LoosePacker | undefined;
  /** Objects written since the last verifyWritten/discardWritten, with their bytes. */
  private readonly pending = new Map<string, { type: ObjectType; content: Buffer }>();
  /** Objects this process wrote (both names made). */
  private readonly written = new Set<string>();

  /**
   * Takes an object git read for us (object-prefetch.ts) so that reading it costs nothing; one
   * already known stays as it is.
   */
  remember(oid: string, obj: GitObject): void {
    if (OID.test(oid) && !this.memo.has(oid)) this.memo.set(oid, obj);
  }

  /**
   * Which of these objects are known or loose here: one listing per object directory they fall
   * in (a sync checks a thousand ids; a stat each took ~10 ms), nothing read.
   */
  looseAmong(oids: Iterable<string>): Set<string> {
    const byPrefix = new Map<string, string[]>();
    const out = new Set<string>();
    for (const oid of oids) {
      if (this.memo.has(oid)) out.add(oid);
      else if (OID.test(oid)) {
        const list = byPrefix.get(oid.slice(0, 2));
        if (list) list.push(oid);
        else byPrefix.set(oid.slice(0, 2), [oid]);
      }
    }
    for (const [prefix, list] of byPrefix) {
      const names = new Set<string>();
      for (const dir of [this.objectsDir, ...this.alternateDirs()]) {
        try {
          for (const name of fs.readdirSync(join(dir, prefix))) names.add(name);
        } catch {
          // no such directory: nothing loose there
        }
      }
      for (const oid of list) if (names.has(oid.slice(2))) out.add(oid);
    }
    return out;
  }

  /** An object only when it is loose here (never opens a pack); null otherwise. */
  async readIfLoose(oid: string): Promise<GitObject | null> {
    if (!OID.test(oid)) return null;
    return this.memo.get(oid) ?? (await this.readLoose(oid));
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
      throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt git object ${oid}`, "git fsck");
    }
    return { type: type as ObjectType, content: buf.subarray(nul + 1) };
  }

  private async readPacked(oid: string): Promise<GitObject | null> {
    // Ours, then each alternate's (another repository's objects dir, or our keep dir: loose only).
    for (const objectsDir of [this.objectsDir, ...this.alternateDirs()]) {
      let reader = this.packs.get(objectsDir);
      if (!reader) this.packs.set(objectsDir, (reader = new PackReader(objectsDir, MAX_OBJECT_BYTES)));
      const obj = reader.read(oid);
      if (obj) return obj;
    }
    return null;
  }

  /**
   * One object through `git cat-file --batch`; null when git is missing or does not have it;
   * E_GIT_CORRUPT_OBJECT when git cannot read it within its bounds.
   */
  private async readWithGit(oid: string): Promise<GitObject | null> {
    const got = (await catFileBatch(this.commonDir, [oid], process.env, MAX_OBJECT_BYTES))?.[0];
    if (!got || got.oid !== oid || !TYPES.has(got.type)) return null;
    return { type: got.type as ObjectType, content: Buffer.from(got.content) };
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
    // Pantheon's own keep dir, even before alternates names it (git reads it through that line).
    const keep = join(this.objectsDir, KEEP_DIR);
    if (!this.alternates.includes(keep)) this.alternates.push(keep);
    return this.alternates;
  }
}
