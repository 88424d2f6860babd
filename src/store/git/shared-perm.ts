/**
 * `core.sharedRepository` (DESIGN §2.2), exactly as git applies it: git_config_perm parses the
 * value, adjust_shared_perm widens (or, for an octal mode, replaces) the permission bits of
 * every file and directory git creates, and sets the setgid bit on directories that grant group
 * access, so that files made later by another member of the group belong to that group too.
 * Without it a second member of the group cannot create the ref's lock in a 2755 directory.
 *
 * Every file and directory Pantheon creates in the common dir goes through `mkdirShared` /
 * `adjustSharedPerm`; the setting is looked up once per command (see `sharedPermOf`).
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { SharedPermError } from "../../errors.js";
import { dirname, relative, sep } from "node:path";

/** git's PERM_GROUP and PERM_EVERYBODY; 0 is PERM_UMASK; a negative value is an octal mode to impose. */
export const PERM_UMASK = 0;
export const PERM_GROUP = 0o660;
export const PERM_EVERYBODY = 0o664;

export type SharedPerm = number;

/** git_config_perm: the value of core.sharedRepository as a permission; throws on a value git refuses. */
export function parseSharedPerm(value: string | undefined): SharedPerm {
  if (value === undefined) return PERM_UMASK;
  // A bare key (`sharedRepository` with no `=`) is git's NULL value, which means "group"; the
  // config parser hands it over as "true".
  if (value === "umask") return PERM_UMASK;
  if (value === "group") return PERM_GROUP;
  if (value === "all" || value === "world" || value === "everybody") return PERM_EVERYBODY;
  const octal = /^[0-7]+$/.test(value) ? parseInt(value, 8) : NaN;
  if (Number.isNaN(octal)) {
    const bool = parseBool(value);
    if (bool === null) throw new SharedPermError(value, "neither a mode nor a boolean");
    return bool ? PERM_GROUP : PERM_UMASK;
  }
  if (octal === 0) return PERM_UMASK;
  if (octal === 1) return PERM_GROUP;
  if (octal === 2) return PERM_EVERYBODY;
  if ((octal & 0o600) !== 0o600)
    throw new SharedPermError(value, "the owner of files must always have read and write permissions");
  // Others never get write permission; x bits of directories are derived from r bits.
  return -(octal & 0o666);
}

/** git_config_bool's accepted spellings (an integer is true unless 0). */
function parseBool(value: string): boolean | null {
  const v = value.toLowerCase();
  if (v === "" || v === "false" || v === "no" || v === "off") return false;
  if (v === "true" || v === "yes" || v === "on") return true;
  if (/^[+-]?\d+[kmg]?$/i.test(value)) return parseInt(value, 10) !== 0;
  return null;
}

const S_IFDIR = 0o040000;
const S_ISGID = 0o2000;

/** calc_shared_perm plus adjust_shared_perm's directory rule: the mode git would give `mode`. */
export function sharedMode(perm: SharedPerm, mode: number, isDir: boolean): number {
  if (perm === PERM_UMASK) return mode;
  let tweak = perm < 0 ? -perm : perm;
  if (!(mode & 0o200)) tweak &= ~0o222;
  if (mode & 0o100) tweak |= (tweak & 0o444) >> 2;
  let next = perm < 0 ? (mode & ~0o777) | tweak : mode | tweak;
  if (isDir) {
    next |= (next & 0o444) >> 2;
    // g+s matters only when the group is granted something.
    if (next & 0o060) next |= S_ISGID;
  }
  return next;
}

/** adjust_shared_perm: chmod `path` as git would; a no-op under "umask" (the default). */
export function adjustSharedPerm(path: string, perm: SharedPerm): void {
  if (perm === PERM_UMASK) return;
  const st = statSync(path);
  const isDir = (st.mode & 0o170000) === S_IFDIR;
  const mode = st.mode & 0o7777;
  const next = sharedMode(perm, mode, isDir);
  if (next !== mode) chmodSync(path, next);
}

/** mkdir -p, with every directory it creates adjusted as git's safe_create_leading_directories does. */
export function mkdirShared(dir: string, perm: SharedPerm): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined || perm === PERM_UMASK) return;
  // From the first directory created down to `dir`.
  const parts = relative(first, dir).split(sep).filter(Boolean);
  let at = first;
  adjustSharedPerm(at, perm);
  for (const p of parts) {
    at = `${at}${sep}${p}`;
    adjustSharedPerm(at, perm);
  }
}

/**
 * The setting for each common dir, looked up on first need in this command: a GitStore
 * registers how to read it (the config cascade of its environment), and every writer in the
 * store asks here by common dir, so none of them need the setting threaded through.
 */
const sources = new Map<string, { load: () => SharedPerm; value?: SharedPerm }>();

export function registerSharedPerm(commonDir: string, load: () => SharedPerm): void {
  sources.set(commonDir, { load });
}

/** The common dir's setting; umask when no store registered it or git's config cannot be read. */
export function sharedPermOf(commonDir: string): SharedPerm {
  const s = sources.get(commonDir);
  if (!s) return PERM_UMASK;
  if (s.value === undefined) {
    try {
      s.value = s.load();
    } catch {
      // An invalid value is refused by the commands that write (GitStore); files still get made.
      s.value = PERM_UMASK;
    }
  }
  return s.value;
}

/** The directory of `path`, created and adjusted for the common dir's setting. */
export function ensureParentDir(commonDir: string, path: string): void {
  mkdirShared(dirname(path), sharedPermOf(commonDir));
}
