/**
 * Pantheon's kept packs: packs of its own objects in `objects/pack/`, each with a `.keep` file
 * that says it is Pantheon's (KEEP_NOTE). `git repack -a -d` (every `git gc`, with or without
 * `--prune=now`) never deletes a kept pack and `git prune` only deletes loose files, so an
 * object in a kept pack is as safe from a concurrent gc as one with a second name in the keep
 * dir; the `.keep` is dropped an hour later (loose-packer.ts), and the pack is then git's.
 */
import * as fs from "node:fs";
import { join } from "node:path";
import { randomBytes } from "../../random-bytes.js";
import { adjustSharedPerm, type SharedPerm } from "./shared-perm.js";

/** How a `.keep` of Pantheon's packed loose objects starts: only these are ever removed or rolled up. */
export const KEEP_NOTE = "pantheon: loose objects packed";

const KEEP_NAME = /^pack-([0-9a-f]{40})\.keep$/;
/** An index of version 2: header, fan-out, then 28 bytes an object (id, CRC, offset), two ids at the end. */
const IDX_FIXED = 8 + 256 * 4 + 40;
const IDX_PER_OBJECT = 28;

export interface KeptPack {
  hash: string;
  /** objects/pack/pack-<hash> (add .keep, .idx, .pack). */
  base: string;
  /** Objects in it, from its index's size; -1 when it has no index (a packer was killed installing it). */
  count: number;
  /** When it was kept: the `.keep` file's mtime (the keep dir's clock). */
  keptAt: number;
}

/** Pantheon's kept packs in `objects/pack/` (a `.keep` written by anyone else is not ours). */
export function listKeptPacks(objectsDir: string): KeptPack[] {
  const dir = join(objectsDir, "pack");
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: KeptPack[] = [];
  for (const name of names) {
    const m = KEEP_NAME.exec(name);
    if (!m) continue;
    const base = join(dir, `pack-${m[1]}`);
    try {
      if (!fs.readFileSync(`${base}.keep`, "utf8").startsWith(KEEP_NOTE)) continue;
      const keptAt = fs.statSync(`${base}.keep`).mtimeMs;
      let count = -1;
      try {
        count = Math.max(0, Math.floor((fs.statSync(`${base}.idx`).size - IDX_FIXED) / IDX_PER_OBJECT));
      } catch {
        // no index (yet): not a pack git can see
      }
      out.push({ hash: m[1]!, base, count, keptAt });
    } catch {
      // removed meanwhile
    }
  }
  return out;
}

/** The object ids a version 2 pack index lists (hex). */
export function idsOfIndex(idxPath: string): string[] {
  const buf = fs.readFileSync(idxPath);
  if (buf.length < IDX_FIXED || buf.readUInt32BE(0) !== 0xff744f63 || buf.readUInt32BE(4) !== 2)
    throw new Error(`${idxPath}: not a version 2 pack index`);
  const count = buf.readUInt32BE(8 + 255 * 4);
  const at = 8 + 256 * 4;
  if (at + count * 20 > buf.length) throw new Error(`${idxPath}: truncated`);
  const ids: string[] = new Array(count);
  for (let i = 0; i < count; i++) ids[i] = buf.toString("hex", at + i * 20, at + i * 20 + 20);
  return ids;
}

/** Whether one of Pantheon's kept packs (with its index) holds `oid`: its ids loaded on first ask. */
export class KeptLookup {
  private ids: Set<string> | null = null;

  constructor(private readonly objectsDir: string) {}

  has(oid: string): boolean {
    if (!this.ids) {
      this.ids = new Set();
      for (const p of listKeptPacks(this.objectsDir)) {
        if (p.count < 0) continue;
        try {
          for (const id of idsOfIndex(`${p.base}.idx`)) this.ids.add(id);
        } catch {
          // rolled up meanwhile: its objects are in the pack that replaced it, listed too or next time
        }
      }
    }
    return this.ids.has(oid);
  }
}

/** A hard link, or a copy (temp name, then rename) where the file system has none. */
function linkOrCopy(from: string, to: string, perm: SharedPerm): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EMLINK" && code !== "EXDEV") throw err;
    // Not ending in .idx or .pack, and not tmp_ (which `git prune` deletes): nobody reads it.
    const tmp = `${to}.${randomBytes(6).toString("hex")}.pantheon-copy`;
    fs.copyFileSync(from, tmp, fs.constants.COPYFILE_EXCL);
    adjustSharedPerm(tmp, perm);
    fs.renameSync(tmp, to);
  }
}

/** The files of a pack: every sidecar, the index last (git sees a pack once its index is there). */
function packFiles(dir: string, hash: string): string[] {
  const prefix = `pack-${hash}.`;
  const exts = fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && n !== `${prefix}keep`)
    .map((n) => n.slice(prefix.length));
  return [...exts.filter((e) => e !== "idx"), ...exts.filter((e) => e === "idx")];
}

/**
 * Moves a finished pack from `stagingDir` (a directory git does not read) into `objects/pack/`
 * as a kept pack: the `.keep` first, then the pack and its sidecars, the index last, so git
 * never sees the pack without its `.keep` (a `git repack` that listed it as not kept could
 * delete it); as `git index-pack --keep` does for a fetch. A name already taken in
 * objects/pack/ is refused: that pack may have been listed as not kept by a running gc.
 */
export function installKept(stagingDir: string, hash: string, objectsDir: string, perm: SharedPerm): void {
  const packDir = join(objectsDir, "pack");
  const to = (ext: string) => join(packDir, `pack-${hash}.${ext}`);
  if (fs.existsSync(to("idx")) || fs.existsSync(to("pack"))) throw new Error(`pack-${hash} is in objects/pack already`);
  const exts = packFiles(stagingDir, hash);
  if (!exts.includes("idx") || !exts.includes("pack")) throw new Error(`pack-${hash} is incomplete`);
  fs.writeFileSync(to("keep"), `${KEEP_NOTE} ${new Date().toISOString()} by ${process.pid}\n`, {
    flag: "wx",
    mode: 0o444,
  });
  adjustSharedPerm(to("keep"), perm);
  const made: string[] = [];
  try {
    for (const ext of exts) {
      linkOrCopy(join(stagingDir, `pack-${hash}.${ext}`), to(ext), perm);
      made.push(to(ext));
    }
  } catch (err) {
    // Invisible to git until its index is in place: taken back whole.
    for (const f of made.reverse()) fs.rmSync(f, { force: true });
    fs.rmSync(to("keep"), { force: true });
    throw err;
  }
  removeStaged(stagingDir, hash);
}

/** Removes a staged pack's files, its index first. */
export function removeStaged(stagingDir: string, hash: string): void {
  let files: string[];
  try {
    files = packFiles(stagingDir, hash);
  } catch {
    return;
  }
  for (const ext of files.reverse()) fs.rmSync(join(stagingDir, `pack-${hash}.${ext}`), { force: true });
}

/**
 * Deletes one of Pantheon's kept packs whose objects are in another kept pack now: the index
 * first (git stops seeing it; a reader that had it open retries and finds the new pack), the
 * `.keep` last, so that git never sees it unkept.
 */
export function removeKept(pack: KeptPack): void {
  const dir = join(pack.base, "..");
  let files: string[] = [];
  try {
    files = packFiles(dir, pack.hash);
  } catch {
    // the pack directory is gone: nothing left to remove but the .keep
  }
  for (const ext of files.reverse()) fs.rmSync(`${pack.base}.${ext}`, { force: true });
  fs.rmSync(`${pack.base}.keep`, { force: true });
}

/** Hands a kept pack to git: its `.keep` goes, so `git gc` repacks what the ref names and drops the rest. */
export function releaseKept(pack: KeptPack): void {
  fs.rmSync(`${pack.base}.keep`, { force: true });
}
