import { closeSync, openSync, readSync } from "node:fs";
import { nodeCrypto } from "./lazy-require.js";

let urandom: number | null | undefined;

/**
 * Cryptographically random bytes without loading node:crypto (~3 ms of a command's start-up):
 * read from the kernel's /dev/urandom, the source node:crypto itself draws on; where there is
 * none (Windows), node:crypto.
 */
export function randomBytes(n: number): Buffer {
  if (urandom === undefined) {
    try {
      urandom = openSync("/dev/urandom", "r");
    } catch {
      urandom = null;
    }
  }
  if (urandom === null) return nodeCrypto().randomBytes(n);
  const out = Buffer.allocUnsafe(n);
  for (let got = 0; got < n; ) {
    const r = readSync(urandom, out, got, n - got, null);
    if (r <= 0) {
      closeSync(urandom);
      urandom = null;
      return nodeCrypto().randomBytes(n);
    }
    got += r;
  }
  return out;
}

/** A random 32-hex-digit id (a UUID v4's 122 random bits, without the dashes). */
export function randomUid(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return b.toString("hex");
}
