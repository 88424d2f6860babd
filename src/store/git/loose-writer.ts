/**
 * Writing loose objects so that a concurrent `git gc --prune=now` cannot make them vanish
 * (DESIGN §2.3). Prune decides what is reachable when it starts and deletes the rest later; an
 * object Pantheon writes is unreachable until the ref names it, so a prune that started just
 * before the swap deletes it just after, and nothing written by the writer can prevent that
 * (`--prune=now` ignores mtimes: its expiry is the end of time). So every object Pantheon writes
 * gets a second name, a hard link in `objects/pantheon/`, which is listed in
 * `objects/info/alternates`: git reads objects there as it reads its own, but neither prune nor
 * `gc`'s local repack ever touch an alternate. An hour later (`sweep`), when any gc that was
 * running has long finished and the object is reachable or garbage, the second name is dropped,
 * after giving the object back to the main store if git deleted its copy. Git's gc cannot pack
 * an object while it has a loose second name (`repack -l`): when there are many, loose-packer.ts
 * packs them into a kept pack, which protects them as the second name did.
 */
import * as fs from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { diskFullAt, diskFullHint, isDiskFull } from "./disk-full.js";
import { GitError } from "../../errors.js";
import { randomBytes } from "../../random-bytes.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "./shared-perm.js";

/** The alternate's directory name under objects/ (and its line in objects/info/alternates). */
export const KEEP_DIR = "pantheon";
/** How long an object keeps its second name: far longer than any gc beside which it was written. */
const KEEP_MS = 60 * 60_000;
/** How often a writer looks for second names past KEEP_MS. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** Tries at one step while a concurrent gc removes the directory or temp file it works in. */
const ATTEMPTS = 8;

const loose = (objectsDir: string, oid: string) => join(objectsDir, oid.slice(0, 2), oid.slice(2));

function alternatesLines(objectsDir: string): { file: string; text: string; lines: string[] } {
  const file = join(objectsDir, "info", "alternates");
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    // none yet: the usual case
  }
  return { file, text, lines: text.split("\n").map((l) => l.trim()) };
}

/** False when the keep dir holds objects but objects/info/alternates no longer names it (git cannot see them). */
export function keepDirListed(objectsDir: string): boolean {
  const keep = join(objectsDir, KEEP_DIR);
  const { lines } = alternatesLines(objectsDir);
  if (lines.includes(KEEP_DIR) || lines.includes(keep)) return true;
  try {
    return !fs.readdirSync(keep).some((d) => /^[0-9a-f]{2}$/.test(d) && fs.readdirSync(join(keep, d)).length > 0);
  } catch {
    return true; // no keep dir
  }
}

/**
 * Another repository's keep dir: `git clone` of a local path copies objects/pantheon/ into the
 * clone and rewrites the relative line into an absolute one naming the source's, which would
 * make every git command warn once the source is gone. Its objects were copied: the line goes.
 */
const foreignKeep = (line: string, keep: string) =>
  isAbsolute(line) && line !== keep && /[\\/]objects[\\/]pantheon$/.test(line);

/** Adds the keep dir to objects/info/alternates (temp file + rename); true when it was missing. */
export function listKeepDir(objectsDir: string, commonDir: string): boolean {
  const keep = join(objectsDir, KEEP_DIR);
  const { file, lines } = alternatesLines(objectsDir);
  const listed = lines.includes(KEEP_DIR) || lines.includes(keep);
  if (listed && !lines.some((l) => foreignKeep(l, keep))) return false;
  const perm = sharedPermOf(commonDir);
  mkdirShared(keep, perm);
  mkdirShared(dirname(file), perm);
  const kept = lines.filter((l) => l !== "" && !foreignKeep(l, keep));
  // Relative to objects/, as git resolves it: the repository can move.
  if (!listed) kept.push(KEEP_DIR);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, `${kept.join("\n")}\n`);
    adjustSharedPerm(tmp, perm);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return !listed;
}

export class LooseWriter {
  readonly keepDir: string;
  private alternateListed = false;

  constructor(
    readonly objectsDir: string,
    private readonly commonDir: string,
  ) {
    this.keepDir = join(objectsDir, KEEP_DIR);
  }

  /** The object's path in the main store. */
  mainPath(oid: string): string {
    return loose(this.objectsDir, oid);
  }

  /**
   * Stores the object, given as its loose file (deflated by the object engine), under both
   * names. An object already in the main store (git's, or an earlier write) gets its mtime
   * refreshed (git's freshen_loose_object: `--prune=<date>` then keeps it) and a second name
   * too: it may be old garbage about to be pruned.
   */
  store(oid: string, data: Buffer): void {
    this.listAlternate();
    const main = this.mainPath(oid);
    const keep = loose(this.keepDir, oid);
    const perm = sharedPermOf(this.commonDir);
    try {
      const now = new Date();
      fs.utimesSync(main, now, now);
      this.link(main, keep, perm);
      return;
    } catch (err) {
      // ENOENT: not in the main store (or pruned this instant); EPERM: another user's file in a
      // shared repository, which exists, and a second name is all that is wanted.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" && fs.existsSync(main)) {
        try {
          this.link(main, keep, perm);
        } catch {
          // its second name is not ours to make: the main copy stands
        }
        return;
      }
    }
    this.retry(oid, () => {
      // Written in the keep dir, where no prune sweeps temp files; renamed, then linked into
      // the main store (rename and link are both atomic: no reader sees a torn object).
      const tmp = join(dirname(keep), `tmp_obj_${process.pid}_${randomBytes(6).toString("hex")}`);
      this.ensureDir(dirname(keep), perm);
      try {
        // 0444 like git: objects are immutable, and a read-only file says so to other tools.
        fs.writeFileSync(tmp, data, { flag: "wx", mode: 0o444 });
        adjustSharedPerm(tmp, perm);
        // Two writers of the same object race harmlessly: both files hold identical bytes.
        fs.renameSync(tmp, keep);
      } catch (err) {
        try {
          fs.unlinkSync(tmp);
        } catch {
          // never created
        }
        throw err;
      }
      this.link(keep, main, perm);
    });
  }

  /**
   * Makes sure the main store has the object again (after the swap: a prune may have deleted
   * it), unless `packed` finds it in one of Pantheon's kept packs (loose-packer.ts packed it
   * meanwhile: as safe as a second name).
   */
  heal(oid: string, data: Buffer, packed: (oid: string) => boolean = () => false): boolean {
    if (fs.existsSync(this.mainPath(oid))) return false;
    const keep = loose(this.keepDir, oid);
    if (fs.existsSync(keep)) this.retry(oid, () => this.link(keep, this.mainPath(oid), sharedPermOf(this.commonDir)));
    else if (packed(oid)) return false;
    else this.store(oid, data);
    return true;
  }

  /** A hard link `to` → `from`'s file; an existing `to` is fine (same id, same bytes). Copies where links are not supported. */
  private link(from: string, to: string, perm: number): void {
    for (let attempt = 1; ; attempt++) {
      try {
        fs.linkSync(from, to);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EEXIST") return;
        if (code === "ENOENT" && attempt < ATTEMPTS && fs.existsSync(from)) {
          // The directory of `to` is missing, or was just removed by prune-packed.
          mkdirShared(dirname(to), perm);
          continue;
        }
        if (code === "EPERM" || code === "ENOTSUP" || code === "EMLINK") return this.copy(from, to, perm);
        throw err;
      }
    }
  }

  private copy(from: string, to: string, perm: number): void {
    const tmp = join(dirname(to), `tmp_obj_${process.pid}_${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(tmp, fs.readFileSync(from), { flag: "wx", mode: 0o444 });
    adjustSharedPerm(tmp, perm);
    fs.renameSync(tmp, to);
  }

  /** Directories made (or found) by this writer: a merge writes hundreds of objects into 256 of them. */
  private readonly madeDirs = new Set<string>();

  private ensureDir(dir: string, perm: number): void {
    if (this.madeDirs.has(dir)) return;
    mkdirShared(dir, perm);
    this.madeDirs.add(dir);
  }

  private retry(oid: string, step: () => void): void {
    for (let attempt = 1; ; attempt++) {
      try {
        step();
        return;
      } catch (err) {
        // A concurrent `git gc` removes object directories it emptied (prune-packed) between
        // two steps here; git's own raceproof_create_file retries the same way (and the
        // directories this writer made may be among them: they are made again).
        if ((err as NodeJS.ErrnoException).code === "ENOENT" && attempt < ATTEMPTS) {
          this.madeDirs.clear();
          continue;
        }
        if (isDiskFull(err))
          throw new GitError(
            "E_GIT_WRITE_OBJECT",
            `Cannot write git object ${oid}: ${diskFullAt(this.objectsDir)}; nothing was changed`,
            diskFullHint(this.objectsDir),
          );
        throw new GitError(
          "E_GIT_WRITE_OBJECT",
          `Cannot write git object ${oid}: ${(err as Error).message}`,
          "check permissions on .git/objects",
        );
      }
    }
  }

  /** objects/info/alternates names the keep dir (checked once per process). */
  private listAlternate(): void {
    if (this.alternateListed) return;
    try {
      listKeepDir(this.objectsDir, this.commonDir);
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      throw new GitError(
        "E_GIT_WRITE_OBJECT",
        `Cannot list objects/pantheon in objects/info/alternates before writing: ${diskFullAt(this.objectsDir)}; nothing was changed`,
        diskFullHint(this.objectsDir),
      );
    }
    this.alternateListed = true;
  }

  /**
   * Drops second names older than KEEP_MS, giving the object back to the main store first when
   * git deleted its copy there (packed: the loose copy is redundant and `git gc` removes it;
   * garbage: the next prune removes it). Runs at most every SWEEP_EVERY_MS per repository;
   * null when it was not its time.
   */
  sweep(): number | null {
    const marker = join(this.keepDir, ".swept");
    try {
      if (Date.now() - fs.statSync(marker).mtimeMs < SWEEP_EVERY_MS) return null;
    } catch {
      // never swept
    }
    let dropped = 0;
    try {
      fs.writeFileSync(marker, "");
      adjustSharedPerm(marker, sharedPermOf(this.commonDir));
      const cutoff = Date.now() - KEEP_MS;
      for (const dir of fs.readdirSync(this.keepDir)) {
        if (!/^[0-9a-f]{2}$/.test(dir)) continue;
        for (const name of fs.readdirSync(join(this.keepDir, dir))) {
          const keep = join(this.keepDir, dir, name);
          const st = fs.statSync(keep);
          if (st.mtimeMs > cutoff) continue;
          if (name.startsWith("tmp_obj_")) {
            fs.rmSync(keep, { force: true }); // a killed writer's
            continue;
          }
          if (!/^[0-9a-f]{38}$/.test(name)) continue;
          this.link(keep, this.mainPath(dir + name), sharedPermOf(this.commonDir));
          fs.unlinkSync(keep);
          dropped++;
        }
      }
    } catch {
      // another writer sweeps too, or the directory is not ours to change: next time
    }
    return dropped;
  }
}
