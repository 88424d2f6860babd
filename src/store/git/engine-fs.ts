/**
 * The `fs` isomorphic-git is given (DESIGN §2.2, §2.3). The library sees one thing through it:
 * loose object files, by path. What it reads comes from the object db (object-db.ts: the file
 * on disk, or an object git read from a pack, handed over as a loose file would be); what it
 * writes goes to the loose writer, which writes to a temporary name and renames it into place
 * (a crash never leaves a truncated object) and gives it its second name in the keep dir. It
 * never sees a pack (packs are git's to read, through cat-file-process.ts), never lists a
 * directory, and can create, remove or link nothing: every other call fails as a missing file
 * or a refusal. An object always looks absent to `stat`, so the library hands every object it
 * makes to `writeFile`, and the writer decides (an object already stored gets its mtime
 * refreshed and a second name, as git's freshen_loose_object would).
 */

/** What the library may read and write through its fs: loose object files, by id. */
export interface LooseFiles {
  /** The loose file of `oid` (a zlib stream of "<type> <size>\0<content>"); null when there is none. */
  read(oid: string): Promise<Uint8Array | null>;
  /** Stores the loose file the library made for `oid`. */
  write(oid: string, file: Uint8Array): void;
}

/** The calls isomorphic-git makes of an fs (its FileSystem binds them all), as promises. */
export interface EngineFs {
  readFile(path: string, opts?: unknown): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array, opts?: unknown): Promise<void>;
  mkdir(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<never>;
  lstat(path: string): Promise<never>;
  readdir(path: string): Promise<string[]>;
  readlink(path: string): Promise<never>;
  symlink(target: string, path: string): Promise<void>;
}

const enoent = (path: string) => Object.assign(new Error(`ENOENT: no such file, '${path}'`), { code: "ENOENT", path });
/**
 * What `stat` and the library's probe get (it calls readFile() with no path on every call, to
 * see whether the fs returns promises): one error made once, as building an Error with its
 * stack on each of thousands of calls showed in a sync's profile. Only its code is read.
 */
const ABSENT = Object.assign(new Error("ENOENT: Pantheon's object engine sees loose objects only"), { code: "ENOENT" });
const refused = (path: string) =>
  Object.assign(new Error(`EPERM: Pantheon's object engine writes loose objects only, not '${path}'`), {
    code: "EPERM",
    path,
  });

/** An fs over `files` for the library, given `gitdir` as the repository's common dir. */
export function engineFs(gitdir: string, files: LooseFiles): EngineFs {
  const prefix = `${gitdir.replace(/[\\/]+$/, "")}/objects/`;
  /** The id a loose object path names; null for any other path. */
  const idOf = (path: string): string | null => {
    if (!path.startsWith(prefix) || path.length !== prefix.length + 41 || path[prefix.length + 2] !== "/") return null;
    const id = path.slice(prefix.length, prefix.length + 2) + path.slice(prefix.length + 3);
    return /^[0-9a-f]{40}$/.test(id) ? id : null;
  };
  return {
    async readFile(path) {
      if (typeof path !== "string") throw ABSENT;
      const id = idOf(path);
      const file = id === null ? null : await files.read(id);
      if (file === null) throw enoent(path);
      return file;
    },
    async writeFile(path, data) {
      const id = idOf(path);
      if (id === null) throw refused(path);
      files.write(id, data);
    },
    async stat() {
      throw ABSENT;
    },
    async lstat() {
      throw ABSENT;
    },
    async readdir() {
      // objects/pack, when a loose object is not found: no pack is the library's to read.
      return [];
    },
    async readlink(path) {
      throw enoent(path);
    },
    async mkdir(path) {
      throw refused(path);
    },
    async rmdir(path) {
      throw refused(path);
    },
    async unlink(path) {
      throw refused(path);
    },
    async symlink(_target, path) {
      throw refused(path);
    },
  };
}
