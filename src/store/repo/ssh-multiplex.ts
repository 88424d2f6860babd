import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureParentDir } from "../git/shared-perm.js";

/**
 * One ssh connection per clone and host for Pantheon's own git calls (DESIGN §3.5): a racing
 * command fetches and pushes, a sync under contention does it again and again, and over ssh each
 * new connection costs a handshake (measured in the soak: claims missed a 5 s budget on
 * handshakes alone). ssh's own multiplexing does it: the first call becomes the master
 * (`ControlMaster=auto`), later ones speak through its socket, and the master stays
 * `ControlPersist` seconds after the last one. Only the options on the command line are ours:
 * the user's ssh config is never read or written here, and a user with an ssh command of their
 * own (GIT_SSH_COMMAND, GIT_SSH, core.sshCommand) keeps it unchanged (run-git.ts).
 */

/** How long the master outlives its last call: a persona's next claim usually comes within a minute. */
export const CONTROL_PERSIST_S = 60;

/**
 * A unix socket's path holds at most 107 bytes (sun_path is 108 with its NUL), and ssh first
 * binds the master at the path plus "." and 16 random characters, then renames it; `%C` (a
 * hash of the local host, the host, port and user) is 40 characters. So the directory may be
 * at most 107 - 17 - 1 - 40 = 49 bytes long.
 */
const MAX_DIR_BYTES = 49;

const known = new Map<string, string | null>();

/**
 * A directory of this user only (mode 0700, owned by them, not a symlink), created if missing;
 * null when it cannot be had. A socket in a directory someone else can write could be replaced by
 * theirs, and ssh would send the git traffic through their process.
 */
function privateDir(dir: string, uid: number | null): string | null {
  try {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid !== null && st.uid !== uid)) return null;
    // Ours, and a real directory: narrowed if something widened it (a umask of 0 does not).
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return dir;
  } catch {
    return null;
  }
}

/**
 * Where this clone's ssh masters live: `<commondir>/pantheon/ssh-<uid>/` when that path is short
 * enough for a socket, else `/tmp/pantheon-<uid>/<hash of the common dir>/` (per clone still);
 * null when neither is a private directory (then ssh runs without multiplexing). Remembered per
 * common dir for the process.
 */
export function sshControlDir(commonDir: string): string | null {
  if (known.has(commonDir)) return known.get(commonDir)!;
  const uid = process.getuid?.() ?? null;
  const who = uid === null ? "user" : String(uid);
  const inRepo = join(commonDir, "pantheon", `ssh-${who}`);
  const hash = createHash("sha1").update(commonDir).digest("hex").slice(0, 12);
  const candidates = [inRepo, join("/tmp", `pantheon-${who}`, hash)].filter(
    (d) => Buffer.byteLength(d) <= MAX_DIR_BYTES,
  );
  let found: string | null = null;
  for (const dir of candidates) {
    try {
      // pantheon/ is shared as the repository says (core.sharedRepository); the socket's own
      // directory never is. Under /tmp the parent is checked too: others could have made it first.
      if (dir === inRepo) ensureParentDir(commonDir, inRepo);
      else if (privateDir(join(dir, ".."), uid) === null) continue;
    } catch {
      continue;
    }
    found = privateDir(dir, uid);
    if (found) break;
  }
  known.set(commonDir, found);
  return found;
}

/** Single quotes for sh (git runs GIT_SSH_COMMAND through the shell). */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The ssh command of Pantheon's own network calls: multiplexed through this clone's socket
 * directory (when it has one), a time limit on connecting (which covers ssh's handshake too), and
 * with `batch` no question ever asked (BatchMode).
 */
export function pantheonSshCommand(commonDir: string, o: { batch: boolean; connectTimeoutS: number }): string {
  const parts = ["ssh", "-o", `ConnectTimeout=${Math.max(1, Math.ceil(o.connectTimeoutS))}`];
  if (o.batch) parts.push("-o", "BatchMode=yes");
  const dir = sshControlDir(commonDir);
  if (dir !== null) {
    // `%` starts an ssh token in ControlPath: a literal one in the directory is doubled.
    const path = `${dir.replace(/%/g, "%%")}/%C`;
    parts.push(
      "-o",
      "ControlMaster=auto",
      "-o",
      shellQuote(`ControlPath=${path}`),
      "-o",
      `ControlPersist=${CONTROL_PERSIST_S}`,
    );
  }
  return parts.join(" ");
}
