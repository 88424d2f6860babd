/**
 * Many objects read through one `git cat-file --batch`, each handed on as it arrives: a full
 * read of 100,000 records then holds one object at a time instead of 60 MB of output, and
 * decoding runs while git is still reading the packs (two cores, not one after the other).
 * Bounded as every git read of the state is (git-bounds.ts), and replace refs are ignored
 * (git-spawn.ts); an object over `maxObjectBytes` is skipped unread (its size is reported).
 */
import { runBoundedGit } from "./git-bounds.js";

export interface StreamOptions {
  /** Larger objects are passed on with `content` null and their size, never held. */
  maxObjectBytes: number;
  /** The run's time limit: by default 30 s and 1 ms more per object asked for. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** One object as git gave it; `content` null when over the size limit. */
export type ObjectVisitor = (oid: string, type: string, size: number, content: Buffer | null) => void;

/**
 * Streams `oids` through `git cat-file --batch`, calling `visit` for each object git has, in
 * order. Resolves to the ids git did not have; null when git could not run, failed or was
 * stopped at a bound (the caller reads what is left another way, bounded again). A throw from
 * `visit` stops git and rejects. git is started and bounded as every read of the state's
 * objects is (git-bounds.ts: its allocation limit, the memory of its process tree, a time
 * limit), so a hostile pack met by a cache rebuild stops here too.
 */
export async function streamObjects(
  gitDir: string,
  oids: readonly string[],
  visit: ObjectVisitor,
  o: StreamOptions,
): Promise<string[] | null> {
  const parser = new BatchParser(visit, o.maxObjectBytes);
  let thrown: { error: unknown } | null = null;
  const env = { ...(o.env ?? process.env), GIT_DIR: undefined };
  const run = await runBoundedGit([`--git-dir=${gitDir}`, "cat-file", "--batch"], {
    env,
    input: oids.length > 0 ? `${oids.join("\n")}\n` : "",
    bounds: { timeoutMs: o.timeoutMs ?? 30_000 + oids.length },
    discardStdout: true,
    onStdout: (chunk) => {
      if (thrown) return "stopped";
      try {
        parser.push(chunk);
        return undefined;
      } catch (error) {
        thrown = { error };
        return "its reader refused what it sent";
      }
    },
  });
  if (thrown) throw (thrown as { error: unknown }).error;
  if (run.status !== 0 || run.stopped !== null || !parser.complete) return null;
  return parser.missing;
}

/**
 * The `--batch` output format, parsed as it comes: "<oid> <type> <size>\n", the content, "\n";
 * or "<name> missing\n" (also "ambiguous"). Contents up to the limit are gathered into one
 * buffer of their size; larger ones are counted past.
 */
class BatchParser {
  readonly missing: string[] = [];
  private header = "";
  private current: { oid: string; type: string; size: number; content: Buffer | null; got: number } | null = null;
  /** Bytes of the newline after a content still to skip. */
  private trailer = 0;

  constructor(
    private readonly visit: ObjectVisitor,
    private readonly max: number,
  ) {}

  /** True between objects (nothing half read). */
  get complete(): boolean {
    return this.current === null && this.trailer === 0 && this.header === "";
  }

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.trailer > 0) {
        pos++;
        this.trailer = 0;
        continue;
      }
      const c = this.current;
      if (c) {
        const n = Math.min(c.size - c.got, chunk.length - pos);
        if (c.content) chunk.copy(c.content, c.got, pos, pos + n);
        c.got += n;
        pos += n;
        if (c.got === c.size) {
          this.current = null;
          this.trailer = 1;
          this.visit(c.oid, c.type, c.size, c.content);
        }
        continue;
      }
      const nl = chunk.indexOf(0x0a, pos);
      if (nl < 0) {
        this.header += chunk.toString("latin1", pos);
        return;
      }
      const line = this.header + chunk.toString("latin1", pos, nl);
      this.header = "";
      pos = nl + 1;
      const [oid, type, size] = line.split(" ");
      if (size === undefined || !/^[0-9a-f]{40}$/.test(oid ?? "")) {
        this.missing.push(oid ?? line);
        continue;
      }
      const bytes = Number(size);
      if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`git cat-file: bad header ${line}`);
      this.current = {
        oid: oid!,
        type: type!,
        size: bytes,
        content: bytes <= this.max ? Buffer.allocUnsafe(bytes) : null,
        got: 0,
      };
      if (bytes === 0) {
        this.current = null;
        this.trailer = 1;
        this.visit(oid!, type!, 0, Buffer.alloc(0));
      }
    }
  }
}
