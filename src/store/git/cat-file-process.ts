import type { ChildProcess } from "node:child_process";
import { GitError } from "../../errors.js";
import { OBJECT_READ_BOUNDS, mib, prepareBounded, SAMPLE_MS, seconds, selfStopped } from "./git-bounds.js";
import { spawnGit } from "./git-spawn.js";
import { anonRss, killAll, processesMarked, processTree } from "./process-tree.js";

export interface CatFileObject {
  type: string;
  content: Buffer;
}

interface Pending {
  oid: string;
  done: (o: CatFileObject | null) => void;
  fail: (e: Error) => void;
}

/** An idle git is ended after this: a long-lived server must not keep one per request. */
const IDLE_MS = 2_000;

/**
 * One `git cat-file --batch` for a command's packed objects (DESIGN §2.2: packs are git's to
 * read): each object is asked for over the pipe when the command needs it, so only the first
 * costs a spawn (~12 ms); each round trip after it costs ~0.1 ms. git also finds what a
 * concurrent `git gc` or `repack` just moved (it looks at the pack directory afresh before it
 * calls an object missing), objects in alternates and in the keep dir.
 *
 * Bounded as git-bounds.ts bounds a one-shot run: git's allocation limit (inherited through
 * the environment), the anonymous resident memory of git and what it starts sampled while a
 * request is open, a time limit per request, and the size git declares in a header, refused
 * before its bytes are taken in. A bound reached kills git and fails every open request with
 * E_GIT_CORRUPT_OBJECT naming the object; the next request starts a new git.
 */
export class CatFileProcess {
  private child: ChildProcess | null = null;
  private marker = "";
  private readonly queue: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  /** The header of the object at the head of the queue, once read. */
  private want: { type: string; size: number } | null = null;
  private stderr = "";
  private timer: NodeJS.Timeout | null = null;
  private sampler: NodeJS.Timeout | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly gitDir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly maxObject: number,
    private readonly bounds = OBJECT_READ_BOUNDS,
  ) {}

  /** The object, or null when git does not have it (or git cannot run at all). */
  read(oid: string): Promise<CatFileObject | null> {
    const child = this.start();
    if (!child) return Promise.resolve(null);
    return new Promise((done, fail) => {
      this.queue.push({ oid, done, fail });
      this.arm();
      child.stdin!.write(`${oid}\n`);
    });
  }

  /** Ends git (it exits at the end of its input). */
  close(): void {
    const child = this.child;
    this.child = null;
    child?.stdin?.end();
  }

  private start(): ChildProcess | null {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.child) return this.child;
    const { env, marker, argv } = prepareBounded([`--git-dir=${this.gitDir}`, "cat-file", "--batch"], {
      env: { ...this.env, GIT_DIR: undefined },
      bounds: this.bounds,
    });
    let child: ChildProcess;
    try {
      child = spawnGit(argv, { env, stdio: ["pipe", "pipe", "pipe"] });
    } catch {
      return null;
    }
    this.marker = marker;
    this.child = child;
    this.buf = Buffer.alloc(0);
    this.want = null;
    this.stderr = "";
    // Between requests neither git nor its pipes keep a command alive: a command that is done
    // exits, and git with it (its input ends). While one is open they do (hold()).
    this.hold(child, false);
    child.stdin!.on("error", () => {});
    child.on("error", () => {
      if (this.child === child) this.settleAll(child, null);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      // git's own words: the first kilobytes say why it stopped.
      if (this.child === child && this.stderr.length < 16_384) this.stderr += chunk.toString("utf8");
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      if (this.child === child) this.feed(chunk);
    });
    child.on("close", () => {
      if (this.child !== child) return;
      this.child = null;
      // Died on its own: its allocation limit (a delta cycle) says so on stderr; anything else
      // leaves the open requests unanswered, for the caller to call missing.
      const stop = selfStopped(this.stderr);
      this.settleAll(child, stop ? this.refusal(this.queue[0]?.oid ?? "", stop.reason) : null);
    });
    return child;
  }

  private feed(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (!this.want) {
        const nl = this.buf.indexOf(0x0a);
        if (nl < 0) {
          if (this.buf.length > 1024) this.stop(head.oid, "printed a header line over 1 KB");
          return;
        }
        const [, type, size] = this.buf.subarray(0, nl).toString("latin1").split(" ");
        this.buf = this.buf.subarray(nl + 1);
        if (size === undefined || type === undefined) {
          this.next()?.done(null); // "<oid> missing"
          continue;
        }
        const n = Number(size);
        if (!/^\d+$/.test(size) || !(n <= this.maxObject))
          return this.stop(
            head.oid,
            `declared it as ${size} bytes, over the ${this.maxObject}-byte limit for an object of the state`,
          );
        this.want = { type, size: n };
      }
      if (this.buf.length < this.want.size + 1) return;
      const content = Buffer.from(this.buf.subarray(0, this.want.size));
      this.buf = this.buf.subarray(this.want.size + 1);
      const type = this.want.type;
      this.want = null;
      this.next()?.done({ type, content });
    }
  }

  private next(): Pending | undefined {
    const p = this.queue.shift();
    if (this.queue.length === 0) this.disarm();
    return p;
  }

  /** Whether `child` keeps the event loop alive: while a request is open, or the process would exit waiting. */
  private hold(child: ChildProcess, on: boolean): void {
    for (const h of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref?(): void; unref?(): void } | null>)
      on ? h?.ref?.() : h?.unref?.();
  }

  /** While a request is open: the time limit and the memory sampler. */
  private arm(): void {
    if (this.timer) return;
    if (this.child) this.hold(this.child, true);
    const { timeoutMs, rssBytes } = this.bounds;
    this.timer = setTimeout(() => this.stop(this.queue[0]?.oid ?? "", `ran past ${seconds(timeoutMs)}`), timeoutMs);
    this.timer.unref();
    if (process.platform === "linux" && Number.isFinite(rssBytes)) {
      this.sampler = setInterval(() => {
        const pid = this.child?.pid;
        if (pid === undefined) return;
        let rss = 0;
        for (const p of processTree(pid)) rss += anonRss(p);
        if (rss > rssBytes) this.stop(this.queue[0]?.oid ?? "", `used over ${mib(rssBytes)} of memory`);
      }, SAMPLE_MS);
      this.sampler.unref();
    }
  }

  private disarm(): void {
    if (this.child) this.hold(this.child, false);
    if (this.timer) clearTimeout(this.timer);
    if (this.sampler) clearInterval(this.sampler);
    this.timer = this.sampler = null;
    if (this.child && !this.idle) {
      this.idle = setTimeout(() => {
        this.idle = null;
        if (this.queue.length === 0) this.close();
      }, IDLE_MS);
      this.idle.unref();
    }
  }

  private refusal(oid: string, reason: string): GitError {
    return new GitError(
      "E_GIT_CORRUPT_OBJECT",
      `Cannot read git object ${oid}: git cat-file ${reason} reading it (a pack holding it is corrupt or hostile)`,
      "git fsck; a pack that came from a shared or alternate repository is that repository's to repair",
    );
  }

  /** A bound reached: git and every process it started are killed, every open request fails. */
  private stop(oid: string, reason: string): void {
    const child = this.child;
    this.child = null;
    if (child?.pid !== undefined) killAll(processTree(child.pid));
    killAll(processesMarked(this.marker));
    if (child) this.settleAll(child, this.refusal(oid, reason));
  }

  /** Every open request of `child` ends: with `err`, or unanswered (null) when git went away. */
  private settleAll(child: ChildProcess, err: Error | null): void {
    if (this.child === child) this.child = null;
    this.disarm();
    this.want = null;
    this.buf = Buffer.alloc(0);
    for (const p of this.queue.splice(0)) err ? p.fail(err) : p.done(null);
  }
}
