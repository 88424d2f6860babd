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

export class ObjectDb {
  readonly objectsDir: string;
  private readonly memo = new Map<string, GitObject>();
  // One isomorphic-git cache per ObjectDb: it holds parsed pack indexes, so sharing it means each
  // .idx is read once per invocation instead of once per object.
  private readonly packCache: object = {};
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

  /** Reads an object, loose first, then from packs; a missing object is an E_GIT RepositoryError. */
  async read(oid: string): Promise<GitObject> {
    const known = this.memo.get(oid);
    if (known) return known;
    if (!OID.test(oid)) throw new RepositoryError("E_GIT", `Invalid object id ${JSON.stringify(oid)}`, "git fsck");
    // Not memoised, so that write("tree", empty) still stores it: fsck's connectivity check wants it.
    if (oid === EMPTY_TREE_OID) return { type: "tree", content: Buffer.alloc(0) };
    const obj = (await this.readLoose(oid)) ?? (await this.readPacked(oid));
    if (!obj) throw new RepositoryError("E_GIT", `Missing git object ${oid}`, "git fsck");
    this.memo.set(oid, obj);
    return obj;
  }

  /** Stores an object as a loose file (temp file + rename, so a crash never leaves a torn object) and returns its id. */
  async write(type: ObjectType, content: Buffer): Promise<string> {
    const oid = this.hash(type, content);
    if (this.memo.has(oid)) return oid;
    const path = this.loosePath(this.objectsDir, oid);
    if (!fs.existsSync(path)) {
      // Same directory as the target so rename() is atomic; the tmp_obj_ prefix is git's own,
      // so `git gc` (prune) sweeps temp files orphaned by a kill.
      const tmp = join(dirname(path), `tmp_obj_${process.pid}_${randomBytes(6).toString("hex")}`);
      const data = storedDeflate(Buffer.concat([Buffer.from(`${type} ${content.length}\0`, "latin1"), content]));
      try {
        fs.mkdirSync(dirname(path), { recursive: true });
        // 0444 like git: objects are immutable, and a read-only file says so to other tools.
        fs.writeFileSync(tmp, data, { flag: "wx", mode: 0o444 });
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
    this.memo.set(oid, { type, content });
    return oid;
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
      try {
        const r = await git.readObject({ fs, gitdir: dirname(objectsDir), oid, format: "content", cache: this.packCache });
        if (!TYPES.has(r.type) || !(r.object instanceof Uint8Array)) continue;
        const content = Buffer.from(r.object.buffer, r.object.byteOffset, r.object.byteLength);
        return { type: r.type as ObjectType, content };
      } catch (err) {
        if ((err as { code?: string }).code === "NotFoundError") continue;
        throw new RepositoryError("E_GIT", `Cannot read git object ${oid}: ${(err as Error).message}`, "git fsck");
      }
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
