import { lazyRequire } from "../../lazy-require.js";

/**
 * A block's checksum in the history index's file (history-file.ts): its CRC-32, as 8 hex
 * digits. It catches bit rot, a torn write and a hand edit; it is no signature (a file forged to
 * match is caught by the bounds checks on every row it names, history-table.ts).
 *
 * node:zlib's, which the pack reader has loaded already when the state is packed (a history
 * reads commits and blobs): SHA-1 through node:crypto cost a `task history` ~4 ms, most of it
 * loading node:crypto (and OpenSSL with it), and a checksum loop in JavaScript is interpreted
 * (a murmur-style loop over the ~60 KB a history checks took 3–8 ms).
 *
 * @example historyChecksum(new Uint8Array(4096)) // "…8 hex digits…"
 */
export function historyChecksum(bytes: Uint8Array): string {
  const zlib = lazyRequire("node:zlib") as typeof import("node:zlib");
  return zlib.crc32(bytes).toString(16).padStart(8, "0");
}
