/**
 * Git's object database (DESIGN §2.2). isomorphic-git is the engine (object-engine.ts, loaded
 * on the first object it is asked for): it inflates loose objects and checks them against their
 * ids, parses and encodes trees and commits, hashes and deflates what is written. It sees only
 * loose object files, through engine-fs.ts: a file on disk, or an object git read from a pack
 * (one `git cat-file --batch` per command, bounded: cat-file-process.ts), handed over as the
 * loose file it would be. Writes go to the loose writer (temporary name, rename, a second name
 * in the keep dir: loose-writer.ts). A blob that git read needs no engine at all.
 */
import * as fs from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { GitError, TreeTooLargeError } from "../../errors.js";
import { lazyRequire, nodeCrypto } from "../../lazy-require.js";
import { CatFileProcess } from "./cat-file-process.js";
import type { CommitData } from "./commit-data.js";
import { engineFs, type EngineFs } from "./engine-fs.js";
import { KeptLookup } from "./kept-packs.js";
import { LoosePacker, type PackerOptions } from "./loose-packer.js";
import { KEEP_DIR, LooseWriter } from "./loose-writer.js";
import type { TreeEntry } from "./tree-entry.js";

/** No object of the state needs more; larger ones are refused rather than inflated. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

/** 100,000 entries of ~50 bytes: far past the layout (≤ a few hundred per tree) but bounded. */
export const MAX_TREE_BYTES = 5 * 1024 * 1024;

export type ObjectType = "blob" | "tree" | "commit" | "tag";

export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

type Engine = typeof import("./object-engine.js");
let engine: Promise<Engine> | undefined;
/** The library, on first use: a command that reads only blobs git hands over never loads it. */
const loadEngine = (): Promise<Engine> => (engine ??= import("./object-engine.js"));

const OID = /^[0-9a-f]{40}$/;
const TYPES = new Set<string>(["blob", "tree", "commit", "tag"]);
// git knows the empty tree without storing it (`git cat-file -t 4b825dc` works in a fresh repo).
export const EMPTY_TREE_OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const zlib = (): typeof import("node:zlib") => lazyRequire("node:zlib") as typeof import("node:zlib");

/**
 * The size a loose file declares in its header ("<type> <size>\0"), read from the first bytes
 * inflated: the library inflates a whole object without a bound, and a zlib bomb (a gigabyte
 * of zeros fetched loose from a collaborator's push) is refused here before it does.
 */
function declaredHeader(oid: string, file: Buffer): { type: string; size: number } {
  const z = zlib();
  let head: Buffer;
  try {
    // 512 bytes of input inflate to at most ~0.5 MB, and hold the header of any honest object.
    head = z.inflateSync(file.subarray(0, 512), { finishFlush: z.constants.Z_SYNC_FLUSH });
  } catch {
    throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt git object ${oid} (bad zlib data)`, "git fsck");
  }
  const nul = head.indexOf(0);
  const m = /^([a-z]+) (\d+)$/.exec(head.subarray(0, Math.max(nul, 0)).toString("latin1"));
  if (!m) throw new GitError("E_GIT_CORRUPT_OBJECT", `Corrupt git object ${oid} (bad header)`, "git fsck");
  return { type: m[1]!, size: Number(m[2]) };
}

export class ObjectDb {
  readonly objectsDir: string;
  private readonly memo = new Map<string, GitObject>();
  private readonly trees = new Map<string, TreeEntry[]>();
  private readonly commits = new Map<string, CommitData>();
  private alternates: string[] | undefined;
  /** The fs the library is given (engine-fs.ts). */
  private readonly engineFs: EngineFs;
  /** The library's cache object, shared by every call of this command (DESIGN §2.5). */
  private readonly engineCache = {};
  private catFile: CatFileProcess | null = null;
  private readonly env: NodeJS.ProcessEnv;
  /**
   * Writes the library asked for and the writer refused (disk full...), by id: thrown once the
   * library returns that id. Never thrown at the library, which would retry after a mkdir.
   */
  private readonly writeFailures = new Map<string, unknown>();

  /** `packing`: a store's, whose mutations pack the keep dir's loose objects (loose-packer.ts). */
  constructor(
    readonly commonDir: string,
    packing?: PackerOptions,
  ) {
    this.objectsDir = join(commonDir, "objects");
    this.env = packing?.env ?? process.env;
    this.writer = new LooseWriter(this.objectsDir, commonDir);
    this.packer = packing && new LoosePacker(this.objectsDir, commonDir, this.writer.keepDir, packing);
    this.engineFs = engineFs(commonDir, {
      read: (oid) => this.looseFile(oid),
      write: (oid, file) => {
        try {
          this.stored(oid, Buffer.from(file.buffer, file.byteOffset, file.byteLength));
        } catch (err) {
          this.writeFailures.set(oid, err);
        }
      },
    });
  }

  /** Computes an object id: sha1 of "<type> <length>\0<content>" (nothing is written). */
  hash(type: ObjectType, content: Buffer): string {
    return nodeCrypto().createHash("sha1").update(`${type} ${content.length}\0`).update(content).digest("hex");
  }

  /**
   * Reads an object: known to this command, loose (through the library, which checks it
   * against its id), else from git (packs, alternates, the keep dir, and whatever a concurrent
   * `git gc` or `repack` just moved: git looks at the pack directory afresh before it calls an
   * object missing). A missing object is E_GIT_READ_OBJECT; one git cannot read within its
   * bounds, or a corrupt loose one, E_GIT_CORRUPT_OBJECT.
   */
  async read(oid: string): Promise<GitObject> {
    const known = this.memo.get(oid);
    if (known) return known;
    this.checkId(oid);
    // Not memoised, so that writeTree([]) still stores it: fsck's connectivity check wants it.
    if (oid === EMPTY_TREE_OID) return { type: "tree", content: Buffer.alloc(0) };
    const obj = (await this.readLoose(oid)) ?? (await this.readWithGit(oid));
    if (obj) {
      this.memo.set(oid, obj);
      return obj;
    }
    throw this.missing(oid);
  }

  /**
   * A tree's entries, parsed by the library (a subtree's mode is "040000"); null when the object
   * is not a tree. A tree over MAX_TREE_BYTES is refused before it is parsed (TreeTooLargeError).
   */
  async readTree(oid: string): Promise<TreeEntry[] | null> {
    const known = this.trees.get(oid);
    if (known) return known;
    this.checkId(oid);
    if (oid === EMPTY_TREE_OID) return [];
    const { readTreeEntries } = await loadEngine();
    const entries = await readTreeEntries(this.where(), oid);
    if (entries) this.trees.set(oid, entries);
    return entries;
  }

  /** A commit, parsed by the library. */
  async readCommit(oid: string): Promise<CommitData> {
    const known = this.commits.get(oid);
    if (known) return known;
    this.checkId(oid);
    const { readCommitData } = await loadEngine();
    const c = await readCommitData(this.where(), oid);
    this.commits.set(oid, c);
    return c;
  }

  /**
   * Stores an object given as its content (a blob) as a loose file: the library hashes and
   * deflates it; the writer writes it to a temporary name and renames it, and gives it a second
   * name in the keep dir, so a concurrent prune cannot take it (loose-writer.ts). Every object
   * written is remembered until `verifyWritten`, which a writer calls once the ref names them.
   */
  async write(type: ObjectType, content: Buffer): Promise<string> {
    const { writeContent } = await loadEngine();
    const oid = await this.written(writeContent({ fs: this.engineFs, gitdir: this.commonDir }, type, content));
    if (!this.memo.has(oid)) this.memo.set(oid, { type, content });
    return oid;
  }

  /** The library encodes what it is given; a tree git would refuse never leaves here. */
  private checkEntries(entries: readonly TreeEntry[]): void {
    const names = new Set<string>();
    for (const e of entries) {
      if (e.name === "" || e.name === "." || e.name === ".." || /[/\0]/.test(e.name) || names.has(e.name))
        throw new GitError("E_GIT_WRITE_OBJECT", `Invalid tree entry ${JSON.stringify(e.name)}`);
      if (!OID.test(e.oid)) throw new GitError("E_GIT_WRITE_OBJECT", `Invalid tree entry ${e.mode} ${e.oid} ${e.name}`);
      names.add(e.name);
    }
  }

  /** Stores a tree of `entries`, encoded and sorted by the library; returns its id. */
  async writeTree(entries: readonly TreeEntry[]): Promise<string> {
    this.checkEntries(entries);
    const { writeTreeEntries } = await loadEngine();
    const oid = await this.written(writeTreeEntries({ fs: this.engineFs, gitdir: this.commonDir }, entries));
    // What the library would parse back (a journal line reads it at once): the entries given, in
    // the library's order (names by code point, as their UTF-8 bytes compare).
    if (!this.trees.has(oid))
      this.trees.set(
        oid,
        [...entries].sort((x, y) => Buffer.compare(Buffer.from(x.name), Buffer.from(y.name))),
      );
    return oid;
  }

  /** Stores a commit, encoded by the library (identities trimmed as git trims them); returns its id. */
  async writeCommit(c: CommitData): Promise<string> {
    const { writeCommitData } = await loadEngine();
    return this.written(writeCommitData({ fs: this.engineFs, gitdir: this.commonDir }, c));
  }

  /** A tree's content as the library encodes it, stored nowhere (a pack being written takes it). */
  async encodeTree(entries: readonly TreeEntry[]): Promise<Buffer> {
    this.checkEntries(entries);
    const { writeTreeEntries } = await loadEngine();
    return this.encoded((fs) => writeTreeEntries({ fs, gitdir: this.commonDir }, entries));
  }

  /** A commit's content as the library encodes it, stored nowhere. */
  async encodeCommit(c: CommitData): Promise<Buffer> {
    const { writeCommitData } = await loadEngine();
    return this.encoded((fs) => writeCommitData({ fs, gitdir: this.commonDir }, c));
  }

  /** What the library wrote through an fs that keeps the loose file it makes, unwrapped. */
  private async encoded(write: (fs: EngineFs) => Promise<string>): Promise<Buffer> {
    let file: Uint8Array | null = null;
    await write(
      engineFs(this.commonDir, {
        read: async () => null,
        write: (_oid, f) => {
          file = f;
        },
      }),
    );
    if (!file) throw new GitError("E_GIT_WRITE_OBJECT", "The object engine wrote no object");
    // "<type> <size>\0<content>", deflated: the content is what a pack entry holds.
    const raw = zlib().inflateSync(file);
    return raw.subarray(raw.indexOf(0) + 1);
  }

  /** The id the library wrote, once it returns; a write the writer refused is thrown here. */
  private async written(writing: Promise<string>): Promise<string> {
    const oid = await writing;
    const failure = this.writeFailures.get(oid);
    if (failure === undefined) return oid;
    this.writeFailures.delete(oid);
    throw failure;
  }

  /** A loose file the library made: both names (once per process), and remembered until verified. */
  private stored(oid: string, file: Buffer): void {
    // Written by this process already (a retry re-writes its blobs): it has both names.
    if (!this.writtenIds.has(oid)) {
      this.writer.store(oid, file);
      this.writtenIds.add(oid);
    }
    this.pending.set(oid, file);
  }

  /**
   * After the swap (DESIGN §2.3): every object written since the last call must be in the main
   * store; one a concurrent prune deleted in between is linked back from its second name (or
   * written again: we still hold its loose file), unless another process packed it meanwhile.
   * Returns what was restored. Then, now and then, old second names are dropped, and loose
   * objects are packed when there are too many.
   */
  verifyWritten(): string[] {
    const restored: string[] = [];
    const kept = new KeptLookup(this.objectsDir);
    for (const [oid, file] of this.pending) if (this.writer.heal(oid, file, (o) => kept.has(o))) restored.push(oid);
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
  /** Loose files written since the last verifyWritten/discardWritten. */
  private readonly pending = new Map<string, Buffer>();
  /** Objects this process wrote (both names made). */
  private readonly writtenIds = new Set<string>();

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

  /** An object only when it is known or loose in the main store (git is never asked); null otherwise. */
  async readIfLoose(oid: string): Promise<GitObject | null> {
    if (!OID.test(oid)) return null;
    const known = this.memo.get(oid);
    if (known) return known;
    const obj = await this.readLoose(oid);
    if (obj) this.memo.set(oid, obj);
    return obj;
  }

  private checkId(oid: string): void {
    if (!OID.test(oid)) throw new GitError("E_GIT_READ_OBJECT", `Invalid object id ${JSON.stringify(oid)}`, "git fsck");
  }

  private missing(oid: string): GitError {
    return new GitError(
      "E_GIT_READ_OBJECT",
      `Missing git object ${oid}`,
      "git fsck; pantheon doctor --recover restores a state ref that points at lost objects",
    );
  }

  private where() {
    return { fs: this.engineFs, gitdir: this.commonDir, cache: this.engineCache };
  }

  private loosePath(oid: string): string {
    return join(this.objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  /** The loose file on disk (its declared size checked), or null when there is none. */
  private looseOnDisk(oid: string): Buffer | null {
    let file: Buffer;
    try {
      file = fs.readFileSync(this.loosePath(oid));
    } catch (err) {
      // Missing, or packed and pruned by a concurrent gc this instant: git finds it in the pack.
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    const { type, size } = declaredHeader(oid, file);
    this.checkSize(oid, type, size);
    if (size > MAX_OBJECT_BYTES)
      throw new GitError(
        "E_GIT_CORRUPT_OBJECT",
        `Cannot read git object ${oid}: it declares ${size} bytes, over the ${MAX_OBJECT_BYTES}-byte limit for an object of the state`,
        "git fsck; a record this large was not written by Pantheon",
      );
    return file;
  }

  /** A loose object of the main store, read by the library; null when it is not loose here. */
  private async readLoose(oid: string): Promise<GitObject | null> {
    // Not loose (every object of a packed clone): the library is not even loaded for it.
    if (!fs.existsSync(this.loosePath(oid))) return null;
    const { readContent } = await loadEngine();
    try {
      return await readContent(this.where(), oid);
    } catch (err) {
      // Pruned between the look and the read: git reads it from the pack it went to.
      if (err instanceof GitError && err.code === "E_GIT_READ_OBJECT") return null;
      throw err;
    }
  }

  /** A tree over MAX_TREE_BYTES is hostile or broken: refused before the library parses it. */
  private checkSize(oid: string, type: string, size: number): void {
    if (type === "tree" && size > MAX_TREE_BYTES) throw new TreeTooLargeError(oid, size, MAX_TREE_BYTES);
  }

  /**
   * The loose file the library asks for: an object this command already holds (written, read
   * from git, prefetched) is handed over as the file git would have written; else the file on
   * disk; else the object from git, handed over the same way. Null when none has it.
   */
  private async looseFile(oid: string): Promise<Uint8Array | null> {
    // Just written by this command (a journal line reads its commit at once): the library's own file.
    const written = this.pending.get(oid);
    if (written) return written;
    const known = this.memo.get(oid);
    if (!known) {
      const file = this.looseOnDisk(oid);
      if (file) return file;
    }
    const obj = known ?? (await this.readWithGit(oid));
    if (!obj) return null;
    if (!known) this.memo.set(oid, obj);
    this.checkSize(oid, obj.type, obj.content.length);
    // Level 0 (a stored stream): the library inflates it again at once; nothing to gain.
    return zlib().deflateSync(
      Buffer.concat([Buffer.from(`${obj.type} ${obj.content.length}\0`, "latin1"), obj.content]),
      {
        level: 0,
      },
    );
  }

  /** One object through the command's `git cat-file --batch`; null when git does not have it. */
  private async readWithGit(oid: string): Promise<GitObject | null> {
    this.catFile ??= new CatFileProcess(this.commonDir, this.env, MAX_OBJECT_BYTES);
    const got = await this.catFile.read(oid);
    if (!got || !TYPES.has(got.type)) return null;
    return { type: got.type as ObjectType, content: got.content };
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
