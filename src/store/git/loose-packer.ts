/**
 * Packing Pantheon's own loose objects (DESIGN §2.4a), so that a busy clone's `.git` stays near
 * what `git gc` makes of it and git's auto gc never warns because of Pantheon.
 *
 * Why git cannot do it: every object Pantheon writes has a second name in the keep dir
 * (loose-writer.ts), an alternate; `git gc` runs `git repack -d -l`, and `pack-objects --local`
 * leaves out every object that an alternate has loose (has_loose_object_nonlocal). So for the
 * hour the second name lasts, gc packs none of them: after a bulk write or a busy hour, auto gc
 * runs, finds as many loose objects after as before, warns "There are too many unreachable
 * loose objects", writes gc.log, and git prints that on every commit, fetch and pull for a day
 * (gc.logExpiry) with auto gc off.
 *
 * What this does, in the mutation that finds too many after its swap (pack-threshold.ts), under
 * a lock (one packer at a time; the others go on without waiting):
 *   1. lists the loose objects of the keep dir (only Pantheon writes there: it is the list of
 *      what Pantheon wrote and git cannot pack yet);
 *   2. `git pack-objects` writes them, with the objects of a few of Pantheon's smaller kept packs
 *      (rollup-choice.ts), into a directory git does not read (objects/pantheon/packing/);
 *   3. the pack is moved into objects/pack/ as a kept pack (kept-packs.ts: `.keep` first, index
 *      last);
 *   4. the rolled-up packs are deleted, then both names of every loose object packed.
 * An hour after a pack was kept (its `.keep` file's mtime, checked with the loose sweep every
 * ten minutes) the `.keep` goes and the pack is git's, to repack or prune as it likes.
 *
 * The race with a concurrent `git gc --prune=now` (DESIGN §2.3). An object Pantheon wrote is
 * unreachable until its ref swap, and must never be unreachable and unprotected between its
 * write and an hour after the swap, by which time any gc that decided before the swap is over.
 * Protected means: a loose name in the keep dir (prune and `repack -l` never touch an
 * alternate) or a place in a kept pack (`repack -a -d` never deletes one, prune never deletes a
 * packed object). Each step keeps one: the loose names are deleted only after pack-objects
 * exited 0 and the kept pack's index is in place; a rolled-up pack is deleted only after the pack
 * holding its objects is kept; the `.keep` goes in before git can see the pack, so no gc ever
 * lists it unkept while its objects' loose names exist, and goes only an hour after the pack
 * was made (a roll-up makes a new pack, so its hour restarts: no object's protection ends
 * sooner than an hour after it was last written or packed). A packer killed at any point leaves
 * extra copies (a staged pack, a kept pack with no index), never too few: the next packer
 * removes them. An object packed while its writer has not swapped yet is found in the kept pack
 * by the writer's check after the swap (`heal`), which then leaves it be; one written again
 * meanwhile gets new loose names, protected anew. The main store's loose copy is deleted with
 * the keep dir's: `git prune-packed` would do the same, the pack has it.
 *
 * The cost to the mutation that packs: one `git pack-objects` over ~3,000 small objects (plus a
 * roll-up of at most ROLL_CAP), measured in docs/performance.md; every other mutation reads one
 * directory (objects/pantheon/17).
 */
import * as fs from "node:fs";
import { join } from "node:path";
import { runBoundedGitSync } from "./git-bounds.js";
import { idsOfIndex, installKept, listKeptPacks, releaseKept, removeKept, removeStaged } from "./kept-packs.js";
import { looseThreshold, type LooseThreshold } from "./pack-threshold.js";
import { chooseRollup } from "./rollup-choice.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "./shared-perm.js";

/** A kept pack keeps its `.keep` this long: the keep dir's hour (loose-writer.ts). */
export const KEPT_MS = 60 * 60_000;
/** No roll-up gathers more objects than this (~1 s of pack-objects here, reusing deltas). */
const ROLL_CAP = 50_000;
/** A lock older than this was left by a killed packer (pack-objects is stopped at PACK_TIMEOUT_MS). */
const LOCK_STALE_MS = 10 * 60_000;
const PACK_TIMEOUT_MS = 5 * 60_000;
/** After a failed pack, mutations do not try again for this long (git missing, a disk full, a prune that took its temporary file). */
const RETRY_AFTER_MS = 60_000;
/** A staged file or an index-less kept pack this old was left by a killed packer. */
const LEFTOVER_MS = 60_000;
const LOOSE_NAME = /^[0-9a-f]{38}$/;
const HEX_DIR = /^[0-9a-f]{2}$/;

/** Environment variables that would aim git at other objects than the common dir's. */
const REDIRECTS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

export interface PackerOptions {
  /** The command's environment: PANTHEON_PACK_LOOSE, and git's own. */
  env: NodeJS.ProcessEnv;
  /** gc.auto as git reads it (every config file, `git -c`), asked only when objects/pantheon/17 has objects. */
  gcAuto: () => string | undefined;
}

export class LoosePacker {
  private readonly lockPath: string;
  private readonly failedPath: string;
  private readonly stagingDir: string;
  private threshold: LooseThreshold | undefined;

  constructor(
    private readonly objectsDir: string,
    private readonly commonDir: string,
    private readonly keepDir: string,
    private readonly opts: PackerOptions,
  ) {
    this.lockPath = join(keepDir, "packing.lock");
    this.failedPath = join(keepDir, "packing.failed");
    this.stagingDir = join(keepDir, "packing");
  }

  /**
   * After a swap: packs the keep dir's loose objects when there are too many, and, when the
   * loose sweep ran (`sweep`), hands kept packs past their hour to git. Never throws: a pack
   * that could not be made leaves every object where it was, and is tried again a minute later.
   */
  afterSwap(sweep: boolean): void {
    if (!sweep && !this.due()) return;
    if (!this.lock()) return;
    try {
      if (sweep) this.release();
      if (this.due()) {
        this.pack();
        fs.rmSync(this.failedPath, { force: true });
      }
    } catch {
      try {
        fs.writeFileSync(this.failedPath, "");
        adjustSharedPerm(this.failedPath, sharedPermOf(this.commonDir));
      } catch {
        // the keep dir is not writable: the lock could not have been taken either
      }
    } finally {
      fs.rmSync(this.lockPath, { force: true });
    }
  }

  /** Too many loose objects in the keep dir, and no failure in the last minute. */
  private due(): boolean {
    const sampled = countLoose(join(this.keepDir, "17"));
    // Nothing more is read while objects/pantheon/17 is empty (as it is after a pack).
    if (sampled === 0 && this.opts.env.PANTHEON_PACK_LOOSE === undefined) return false;
    this.threshold ??= looseThreshold(this.opts.env, this.gcAuto());
    const over =
      this.threshold.kind === "sample"
        ? sampled > this.threshold.perDir
        : this.looseIds().length > this.threshold.objects;
    if (!over) return false;
    try {
      return Date.now() - fs.statSync(this.failedPath).mtimeMs > RETRY_AFTER_MS;
    } catch {
      return true; // never failed
    }
  }

  private gcAuto(): string | undefined {
    try {
      return this.opts.gcAuto();
    } catch {
      return undefined; // an unreadable config: git's default
    }
  }

  private lock(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(this.lockPath, `${process.pid}\n`, { flag: "wx" });
        adjustSharedPerm(this.lockPath, sharedPermOf(this.commonDir));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") return false;
        try {
          // Judged by age, like the ref's lock. Two packers that both take a stale lock over
          // are harmless: each deletes only what its own pack holds.
          if (Date.now() - fs.statSync(this.lockPath).mtimeMs < LOCK_STALE_MS) return false;
          fs.rmSync(this.lockPath, { force: true });
        } catch {
          // released meanwhile: try again
        }
      }
    }
    return false;
  }

  /** The loose objects of the keep dir (temporary files of writers at work are not objects yet). */
  private looseIds(): string[] {
    const ids: string[] = [];
    let dirs: string[];
    try {
      dirs = fs.readdirSync(this.keepDir).filter((d) => HEX_DIR.test(d));
    } catch {
      return ids;
    }
    for (const dir of dirs) {
      try {
        for (const name of fs.readdirSync(join(this.keepDir, dir))) if (LOOSE_NAME.test(name)) ids.push(dir + name);
      } catch {
        // removed meanwhile
      }
    }
    return ids;
  }

  /** Every ten minutes: kept packs past their hour become git's; a killed packer's leftovers go. */
  private release(): void {
    const now = Date.now();
    for (const p of listKeptPacks(this.objectsDir)) {
      if (p.count < 0 && now - p.keptAt > LEFTOVER_MS) removeKept(p);
      else if (p.count >= 0 && now - p.keptAt > KEPT_MS) releaseKept(p);
    }
    let staged: string[] = [];
    try {
      staged = fs.readdirSync(this.stagingDir);
    } catch {
      // nothing staged
    }
    for (const hash of new Set(staged.map((n) => /^pack-([0-9a-f]{40})\./.exec(n)?.[1]).filter(Boolean)))
      removeStaged(this.stagingDir, hash!);
  }

  private pack(): void {
    const loose = this.looseIds();
    if (loose.length === 0) return;
    const now = Date.now();
    // Packs kept for under half their hour: an older one is left to age out, or a busy clone
    // that keeps rolling up would keep restarting the hour of its biggest pack.
    const young = listKeptPacks(this.objectsDir).filter((p) => p.count >= 0 && now - p.keptAt < KEPT_MS / 2);
    const rolled = chooseRollup(
      young.map((p) => ({ name: p.hash, count: p.count })),
      loose.length,
      ROLL_CAP,
    ).map((c) => young.find((p) => p.hash === c.name)!);
    const ids = new Set(loose);
    for (const p of rolled) for (const id of idsOfIndex(`${p.base}.idx`)) ids.add(id);
    const perm = sharedPermOf(this.commonDir);
    mkdirShared(this.stagingDir, perm);
    const env: NodeJS.ProcessEnv = { ...this.opts.env };
    for (const k of REDIRECTS) delete env[k];
    const r = runBoundedGitSync(
      [`--git-dir=${this.commonDir}`, "pack-objects", "--delta-base-offset", "-q", join(this.stagingDir, "pack")],
      {
        cwd: this.commonDir,
        env,
        input: `${[...ids].join("\n")}\n`,
        maxStdout: 1 << 20,
        // Bigger than an object read's: a roll-up holds tens of thousands of entries.
        bounds: { timeoutMs: PACK_TIMEOUT_MS, allocBytes: 512 * 1024 * 1024 },
      },
    );
    const hashes = r.stdout.toString("latin1").match(/^[0-9a-f]{40}$/gm) ?? [];
    if (r.status !== 0 || hashes.length === 0) {
      for (const h of hashes) removeStaged(this.stagingDir, h);
      throw new Error(`git pack-objects: ${r.stderr.trim() || r.error?.message || r.stopped?.reason}`);
    }
    // pack.packSizeLimit may split it: every part kept before anything is deleted.
    for (const h of hashes) installKept(this.stagingDir, h, this.objectsDir, perm);
    for (const p of rolled) removeKept(p);
    const dirs = new Set<string>();
    for (const id of loose) {
      // Both names, the main store's first: a writer re-linking it then writes it afresh.
      for (const root of [this.objectsDir, this.keepDir]) unlinkIfThere(join(root, id.slice(0, 2), id.slice(2)));
      dirs.add(id.slice(0, 2));
    }
    // Emptied directories go, as `git prune-packed` removes them (a writer makes its directory
    // again: loose-writer.ts retries on ENOENT); one that filled meanwhile stays (ENOTEMPTY).
    for (const d of dirs)
      for (const root of [this.objectsDir, this.keepDir])
        try {
          fs.rmdirSync(join(root, d));
        } catch {
          // not empty, or gone
        }
  }
}

/** unlink, a missing file being fine (rmSync's force costs an lstat more: thousands of files here). */
function unlinkIfThere(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Loose objects in one object directory. */
function countLoose(dir: string): number {
  try {
    let n = 0;
    for (const name of fs.readdirSync(dir)) if (LOOSE_NAME.test(name)) n++;
    return n;
  } catch {
    return 0;
  }
}
