import { spawnSync } from "node:child_process";
import type { ObjectDb } from "./object-db.js";

/** Above this many blobs, one `git cat-file --batch` beats reading loose or packed objects in-process. */
const BATCH_THRESHOLD = 256;

/**
 * Reads many blobs at once: through `git cat-file --batch` when there are many (a cache
 * rebuild reads every record: ~0.2 s at 10,000 against ~2.8 s object by object), else through
 * the object db. Falls back to the object db when git is not available.
 */
export async function readBlobs(db: ObjectDb, gitDir: string, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (oids.length >= BATCH_THRESHOLD) {
    const r = spawnSync("git", [`--git-dir=${gitDir}`, "cat-file", "--batch"], {
      input: `${oids.join("\n")}\n`,
      maxBuffer: 1 << 30,
      env: { ...process.env, GIT_DIR: undefined } as NodeJS.ProcessEnv,
    });
    if (r.status === 0 && r.stdout) {
      const buf = r.stdout;
      let pos = 0;
      while (pos < buf.length) {
        const nl = buf.indexOf(0x0a, pos);
        if (nl < 0) break;
        const [oid, type, size] = buf.subarray(pos, nl).toString("latin1").split(" ");
        if (type === "missing" || !size) {
          pos = nl + 1;
          continue;
        }
        const len = Number(size);
        if (type === "blob") out.set(oid!, buf.subarray(nl + 1, nl + 1 + len));
        pos = nl + 1 + len + 1; // content, then a newline
      }
    }
  }
  for (const oid of oids) {
    if (out.has(oid)) continue;
    const obj = await db.read(oid);
    if (obj.type === "blob") out.set(oid, obj.content);
  }
  return out;
}
