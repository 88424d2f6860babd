import { GitError } from "../../errors.js";
import { runBoundedGit } from "./git-bounds.js";

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

/**
 * Follows `git cat-file --batch` output as it arrives: counts the answers (so the object git was
 * reading when it was stopped is known: the requests are answered in order), and refuses a
 * header that declares a size over the bound before any of its bytes are taken in.
 */
class BatchWatch {
  /** Header lines seen ("<oid> <type> <size>", or "<spec> missing"). */
  answered = 0;
  /** The object whose header declared a size over the bound. */
  oversized: string | null = null;
  private skip = 0;
  private head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly maxObject: number) {}

  feed(chunk: Buffer): string | undefined {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - pos);
        this.skip -= n;
        pos += n;
        continue;
      }
      const nl = chunk.indexOf(0x0a, pos);
      const end = nl < 0 ? chunk.length : nl;
      this.head.push(chunk.subarray(pos, end));
      this.headBytes += end - pos;
      if (this.headBytes > 1024) return "printed a header line over 1 KB";
      if (nl < 0) return undefined;
      pos = nl + 1;
      const [oid, , size] = Buffer.concat(this.head).toString("latin1").split(" ");
      this.head = [];
      this.headBytes = 0;
      this.answered++;
      if (size === undefined) continue; // "<spec> missing": nothing follows the line
      const n = Number(size);
      if (!/^\d+$/.test(size) || !(n <= this.maxObject)) {
        this.oversized = oid ?? "";
        return `declared it as ${size} bytes, over the ${this.maxObject}-byte limit for an object of the state`;
      }
      this.skip = n + 1; // the content, then a newline
    }
    return undefined;
  }
}

/**
 * `git cat-file --batch` over `specs` (object ids, or `<commit>:<path>`-style names), within the
 * bounds of git-bounds.ts: each object git has, in order; a spec git lacks ("<spec> missing",
 * "ambiguous") is left out. Null when git could not run or failed. Git stopped at a bound (a
 * delta cycle, an object declaring gigabytes) is E_GIT_CORRUPT_OBJECT naming the object it was
 * reading. Contents are views into one buffer (a batch reads thousands of small objects).
 */
export async function catFileBatch(
  gitDir: string,
  specs: readonly string[],
  env: NodeJS.ProcessEnv,
  // object-db.ts's MAX_OBJECT_BYTES (not imported: object-db.ts imports this file).
  maxObject = 64 * 1024 * 1024,
): Promise<BatchObject[] | null> {
  const watch = new BatchWatch(maxObject);
  const r = await runBoundedGit([`--git-dir=${gitDir}`, "cat-file", "--batch"], {
    env: { ...env, GIT_DIR: undefined },
    input: `${specs.join("\n")}\n`,
    onStdout: (chunk) => watch.feed(chunk),
  });
  if (r.stopped) {
    const name = watch.oversized ?? specs[watch.answered] ?? `among ${specs.length} objects`;
    throw new GitError(
      "E_GIT_CORRUPT_OBJECT",
      `Cannot read git object ${name}: git cat-file ${r.stopped.reason} reading it (a pack holding it is corrupt or hostile)`,
      "git fsck; a pack that came from a shared or alternate repository is that repository's to repair",
    );
  }
  if (r.status !== 0) return null;
  const out = r.stdout;
  const objects: BatchObject[] = [];
  for (let pos = 0; pos < out.length; ) {
    const nl = out.indexOf(0x0a, pos);
    if (nl < 0) break;
    const [oid, type, size] = out.subarray(pos, nl).toString("latin1").split(" ");
    if (size === undefined || !oid || !type) {
      pos = nl + 1; // "<spec> missing": nothing follows the line
      continue;
    }
    const end = nl + 1 + Number(size);
    if (!Number.isSafeInteger(end) || end > out.length) break;
    objects.push({ oid, type, content: out.subarray(nl + 1, end) });
    pos = end + 1; // the content, then a newline
  }
  return objects;
}
