/**
 * Ref reads and compare-and-swap with git's own lock protocol (that of `git update-ref REF NEW
 * OLD`): create `<ref>.lock` exclusively, check the old value under the lock, write the new value
 * into the lock, rename it over the ref. Real git and other pantheon processes honour the same
 * `.lock`, so no writer that follows the protocol can slip in between the check and the rename.
 */
// Synchronous fs: a ref is one small file, and node:fs/promises costs ~1.5 ms to load.
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { GitError, RepositoryError } from "../../errors.js";
import { diskFullAt, diskFullHint, isDiskFull } from "./disk-full.js";
import { appendReflog, ZERO_OID, type ReflogEntry } from "./reflog.js";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "./shared-perm.js";

const OID = /^[0-9a-f]{40}$/;
// git's SYMREF_MAXDEPTH.
const MAX_SYMREF_DEPTH = 5;

export type CasResult =
  | { ok: true }
  | { ok: false; reason: "moved"; current: string | null }
  | { ok: false; reason: "locked"; ageMs: number; lockPath: string };

/** The loose file that holds `ref` ("refs/coordination/main") under the common dir. */
export function refFile(commonDir: string, ref: string): string {
  // check_refname_format, the parts that could escape the refs dir or collide with a lock file.
  if (
    !(ref === "HEAD" || ref.startsWith("refs/")) ||
    /(^|\/)\.|\.\.|\/\/|\/$|\.lock(\/|$)|\.$|@\{|[\x00-\x20\x7f~^:?*[\\]/.test(ref)
  ) {
    throw new GitError("E_GIT_READ_REF", `Invalid ref name ${JSON.stringify(ref)}`);
  }
  return join(commonDir, ...ref.split("/"));
}

/** Reads a ref's object id (loose file, else packed-refs; symbolic refs followed); null when absent. */
export async function readRef(commonDir: string, ref: string): Promise<string | null> {
  let name = ref;
  for (let depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
    const loose = await readLoose(commonDir, name);
    if (loose === undefined) return readPacked(commonDir, name);
    if (!loose.startsWith("ref:")) return loose;
    name = loose.slice(4).trim();
  }
  throw new GitError("E_GIT_READ_REF", `Symbolic ref ${ref} nests too deeply`, "git symbolic-ref");
}

/** The loose ref's raw value: an oid or "ref: <target>"; undefined when there is no loose file. */
async function readLoose(commonDir: string, ref: string): Promise<string | undefined> {
  const path = refFile(commonDir, ref);
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOTDIR: a prefix of the ref is a file; EISDIR: the ref names a directory of refs.
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw err;
  }
  if (OID.test(text) || text.startsWith("ref:")) return text;
  throw new GitError(
    "E_GIT_READ_REF",
    `Ref ${ref} is corrupt: ${path} holds ${JSON.stringify(text.slice(0, 60))}`,
    "git fsck",
  );
}

async function readPacked(commonDir: string, ref: string): Promise<string | null> {
  let text: string;
  try {
    text = readFileSync(join(commonDir, "packed-refs"), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  for (const line of text.split("\n")) {
    // "# pack-refs with: peeled fully-peeled sorted" header; "^<oid>" peels the annotated tag above.
    if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
    const sp = line.indexOf(" ");
    if (line.slice(sp + 1) === ref) return line.slice(0, sp);
  }
  return null;
}

/** The ref's value as seen by a CAS: like readRef, but a symbolic ref is refused rather than followed. */
async function readDirect(commonDir: string, ref: string): Promise<string | null> {
  const loose = await readLoose(commonDir, ref);
  if (loose === undefined) return readPacked(commonDir, ref);
  if (loose.startsWith("ref:"))
    throw new GitError("E_GIT_REF_UPDATE", `Ref ${ref} is a symbolic ref; refusing to overwrite it`);
  return loose;
}

/** Who moved the ref and why, for its reflog line (old and new are the CAS's own). */
export type ReflogNote = Omit<ReflogEntry, "old" | "next">;

/**
 * Atomically moves `ref` from `expected` (null = must not exist) to `next`, with git's `.lock`
 * protocol; with `log`, the update is appended to the ref's reflog under the lock, as git does.
 */
export async function casRef(
  commonDir: string,
  ref: string,
  expected: string | null,
  next: string,
  log?: ReflogNote,
): Promise<CasResult> {
  if (!OID.test(next)) throw new GitError("E_GIT_REF_UPDATE", `Invalid object id ${JSON.stringify(next)} for ${ref}`);
  const path = refFile(commonDir, ref);
  const lockPath = `${path}.lock`;
  const fd = createLock(commonDir, lockPath);
  if (fd === null) {
    faultNotice("lock-busy");
    return { ok: false, reason: "locked", ageMs: (await lockStatus(commonDir, ref))?.ageMs ?? 0, lockPath };
  }
  let renamed = false;
  let closed = false;
  try {
    // From here until the rename, no protocol-following writer can move the ref. `git pack-refs`
    // may copy it into packed-refs meanwhile, but it also locks each loose ref before pruning
    // it, so the value read here (loose first, then packed) is the one the rename replaces.
    const current = await readDirect(commonDir, ref);
    if (current !== expected) return { ok: false, reason: "moved", current };
    // The lock's content is the new value, exactly as git writes it; no fsync (git's default).
    writeSync(fd, `${next}\n`);
    closeSync(fd);
    closed = true;
    // Written before the rename, under the lock, as refs/files-backend.c does: the reflog never
    // misses an update that happened, and git's own updates (same lock) interleave whole lines.
    if (log) appendReflog(commonDir, ref, { ...log, old: expected ?? ZERO_OID, next });
    await faultPoint("holding-lock");
    // rename() is atomic on POSIX: readers see the old ref or the new one, never a torn file.
    // A ref that exists only in packed-refs is shadowed by the new loose file, as git does.
    renameSync(lockPath, path);
    renamed = true;
  } catch (err) {
    if (err instanceof RepositoryError) throw err;
    if (isDiskFull(err))
      throw new GitError("E_GIT_REF_UPDATE", `Cannot update ${ref}: ${diskFullAt(commonDir)}`, diskFullHint(commonDir));
    throw new GitError("E_GIT_REF_UPDATE", `Cannot update ${ref}: ${(err as Error).message}`, "git fsck");
  } finally {
    if (!renamed) {
      try {
        if (!closed) closeSync(fd);
        unlinkSync(lockPath);
      } catch {
        // already gone: nothing to undo
      }
    }
  }
  // Killed past this point, the update has happened even though no caller heard "ok": a retry
  // must re-read the ref and find its own commit there rather than assume it lost.
  await faultPoint("after-rename");
  return { ok: true };
}

/** Creates the lock exclusively (with core.sharedRepository's bits, as git's lockfile.c); null when someone else holds it. */
function createLock(commonDir: string, lockPath: string): number | null {
  const perm = sharedPermOf(commonDir);
  // `git pack-refs --prune` deletes ref directories it empties, so the directory made here can
  // vanish before the open; git's raceproof_create_file retries the same way.
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirShared(dirname(lockPath), perm);
      const fd = openSync(lockPath, "wx", 0o666);
      try {
        // The lock becomes the ref by rename, so its mode is the ref's.
        adjustSharedPerm(lockPath, perm);
      } catch (err) {
        closeSync(fd);
        unlinkSync(lockPath);
        throw err;
      }
      return fd;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return null;
      if (code === "ENOENT" && attempt < 3) continue;
      if (isDiskFull(err))
        throw new GitError(
          "E_GIT_REF_UPDATE",
          `Unable to create '${lockPath}': ${diskFullAt(commonDir)}`,
          diskFullHint(commonDir),
        );
      throw new GitError(
        "E_GIT_REF_UPDATE",
        `Unable to create '${lockPath}': ${(err as Error).message}`,
        "check permissions on the git dir",
      );
    }
  }
}

/** Reports the ref's lock file and its age (judged by mtime: a lock cannot name its writer), or null. */
export async function lockStatus(commonDir: string, ref: string): Promise<{ path: string; ageMs: number } | null> {
  const path = `${refFile(commonDir, ref)}.lock`;
  try {
    const st = statSync(path);
    return { path, ageMs: Math.max(0, Date.now() - st.mtimeMs) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Removes the ref's lock file (left by a killed process) and reports what it removed, or null. */
export async function breakLock(commonDir: string, ref: string): Promise<{ path: string; ageMs: number } | null> {
  const status = await lockStatus(commonDir, ref);
  if (!status) return null;
  // If the holder is in fact alive, its rename now fails with ENOENT and it reports an error;
  // that is the user's call, made with the lock's age in front of them.
  try {
    unlinkSync(status.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  return status;
}

/** Test hook: with PANTHEON_FAULT_AT=<name>, announces the point on stderr and goes on (a test waits for the moment, e.g. a lock met). */
export function faultNotice(name: string): void {
  if (process.env.PANTHEON_FAULT_AT === name) process.stderr.write(`pantheon-fault:${name}\n`);
}

/** Test hook: with PANTHEON_FAULT_AT=<name>, announces the point on stderr and hangs so a test can SIGKILL the process there. */
export async function faultPoint(name: string): Promise<void> {
  if (process.env.PANTHEON_FAULT_AT !== name) return;
  process.stderr.write(`pantheon-fault:${name}\n`);
  // A pending promise alone lets Node exit; the interval keeps the event loop alive.
  setInterval(() => undefined, 1 << 30);
  await new Promise<never>(() => undefined);
}
