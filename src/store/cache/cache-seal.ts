import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { nodeCrypto } from "../../lazy-require.js";
import { randomBytes } from "../../random-bytes.js";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";

/**
 * The read cache's seal (DESIGN §2.5): a keyed hash (HMAC-SHA1) of everything a kind's cache
 * file says, written beside it when Pantheon saves it. `doctor` skips validating a record only
 * where a sealed cache says it validated that very blob; a file changed by anything else (a
 * hand edit, a damaged disk, a stray tool) no longer matches its seal, so it is not believed.
 * The key is random per clone and lives in the cache folder: whoever can write the cache can
 * read it, as they can write the ref itself (docs/security.md); the seal guards against
 * mistakes and damage, not against this clone's own user.
 */
const KEY_FILE = "seal-key";

function keyPath(dir: string): string {
  return join(dir, KEY_FILE);
}

/** This clone's key, made on first use when `create`; null when there is none (or it is unreadable). */
export function sealKey(commonDir: string, dir: string, create: boolean): Buffer | null {
  const path = keyPath(dir);
  try {
    const key = Buffer.from(readFileSync(path, "utf8").trim(), "hex");
    if (key.length === 32) return key;
  } catch {
    // none yet
  }
  if (!create) return null;
  try {
    ensureParentDir(commonDir, path);
    // Exclusive: two first saves racing keep one key, the one that landed first.
    // Modes as every cache file's: the key is no secret from whoever can write the cache itself.
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
    } finally {
      closeSync(fd);
    }
    adjustSharedPerm(path, sharedPermOf(commonDir));
  } catch {
    // another process made it meanwhile, or the folder is read-only
  }
  return sealKey(commonDir, dir, false);
}

/** The seal of `parts` (each length-prefixed, so moving bytes between them changes it). */
export function sealOf(key: Buffer, parts: ReadonlyArray<Uint8Array | string>): string {
  const mac = nodeCrypto().createHmac("sha1", key);
  const len = Buffer.alloc(8);
  for (const part of parts) {
    const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
    len.writeBigUInt64LE(BigInt(bytes.length));
    mac.update(len).update(bytes);
  }
  return mac.digest("hex");
}
