import { formatAge } from "../../errors.js";
import { spawnGit, spawnGitSync } from "./git-spawn.js";
import { anonRss, killAll, processesMarked, processTree } from "./process-tree.js";

/**
 * The bounds of a git process that reads objects (DESIGN §2.2): a pack that git cannot read
 * within them is reported, never waited for. A delta that names itself as its base, or two that
 * name each other, sends git round the chain for ever: measured here (git 2.39), `git cat-file
 * --batch` grew ~300 MB a second and reached 16.7 GB before the kernel refused it more.
 *
 * What bounds memory, measured on such a pack:
 * - `GIT_ALLOC_LIMIT`: git refuses any single allocation over it (wrapper.c, `xmalloc` and
 *   friends) and dies with "attempting to allocate N over limit M". Every structure a hostile
 *   pack makes git grow without end is one array grown by `ALLOC_GROW` (the delta chain's
 *   stack in `unpack_entry` and `packed_to_object_type`), an object's buffer or a delta's
 *   result, so this is what stops it: at 128 MiB, `cat-file --batch` on a delta cycle dies
 *   after ~1 s (0.9-1.8 s on a busy 2-core machine) with a peak of ~113 MiB. The variable is
 *   inherited by the helpers git starts (`upload-pack` and `pack-objects` behind a fetch from a
 *   local path, `index-pack`), so it bounds them as well, without /proc.
 * - The resident memory of the process tree (anonymous pages, so mapped pack files do not
 *   count), sampled from /proc every 20 ms on Linux by the asynchronous runner: the second
 *   line, for growth made of many small allocations. The synchronous runner cannot sample (its
 *   caller is blocked) and relies on the allocation limit.
 * - The config knobs below bound what git keeps on purpose (delta bases cached, delta search
 *   windows of a push), keeping an honest read well under the bounds; a runaway is not what
 *   they bound (the delta cycle grows the same with them set).
 * - The time limit kills the process and every process it started (found through /proc).
 * Readers of git's output also refuse what git declares: `git cat-file --batch` names each
 * object's size in its header, and a size over the record bound is refused before its bytes
 * are read (cat-file-batch.ts).
 */
export interface GitBounds {
  /** Wall-clock limit (Infinity: none). */
  timeoutMs: number;
  /** GIT_ALLOC_LIMIT: the largest single allocation git may make. */
  allocBytes: number;
  /** Anonymous resident memory of git and its helpers together (Linux, asynchronous runner). */
  rssBytes: number;
}

const MIB = 1024 * 1024;

/**
 * Reading the state's objects: twice the largest object the state may hold (object-db.ts's
 * MAX_OBJECT_BYTES, 64 MiB, which git allocates whole when it applies a delta), half a GiB for
 * everything, and 30 s (`cat-file --batch` reads 50,000 records in ~1 s).
 */
export const OBJECT_READ_BOUNDS: GitBounds = { timeoutMs: 30_000, allocBytes: 128 * MIB, rssBytes: 512 * MIB };

/** git's own caches, kept small: they are per process and the state's objects are small. */
const KNOBS = [
  "-c",
  "core.deltaBaseCacheLimit=32m",
  "-c",
  "core.bigFileThreshold=64m",
  "-c",
  "pack.windowMemory=64m",
  "-c",
  "pack.deltaCacheSize=64m",
];

/** How often the resident memory of a running git is sampled (Linux). */
export const SAMPLE_MS = 20;

/** Which bound: time, memory (git's allocation limit or the tree's), output, or the reader's own check. */
export interface Stop {
  bound: "time" | "memory" | "output" | "reader";
  /** What git did, as the end of a sentence: "ran past 30 s", "used over 512 MiB of memory". */
  reason: string;
}

/** How one bounded run of git ended. */
export interface BoundedRun {
  /** Exit status; null when it was killed or could not start. */
  status: number | null;
  stdout: Buffer;
  stderr: string;
  /** The bound git was stopped at, or stopped itself at, and why in words; null within them. */
  stopped: Stop | null;
  /** The highest anonymous resident memory of the tree seen (bytes; 0 when not sampled). */
  peakRss: number;
  /** git could not be started at all. */
  error?: Error;
}

export interface BoundedOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string | Buffer;
  bounds?: Partial<GitBounds>;
  /** stdout kept at most (git is stopped past it). */
  maxStdout?: number;
  /** Sees stdout as it arrives; a string returned stops git, with that string as the reason. */
  onStdout?: (chunk: Buffer) => string | undefined;
  /** Keep none of stdout (only whether git succeeds matters). */
  discardStdout?: boolean;
}

let runs = 0;

/** "0.4 s" below ten seconds (a test's bound), as formatAge above. */
export function seconds(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : formatAge(ms);
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / MIB)} MiB`;
}

/** The bound git's own message says it hit, if any. */
export function selfStopped(stderr: string): Stop | null {
  const alloc = /attempting to allocate (\d+) over limit (\d+)/.exec(stderr);
  if (alloc)
    return {
      bound: "memory",
      reason: `tried to allocate ${mib(Number(alloc[1]))}, over its ${mib(Number(alloc[2]))} limit`,
    };
  if (/out of memory, \w+ failed/i.test(stderr)) return { bound: "memory", reason: "ran out of memory" };
  return null;
}

/** The environment (allocation limit, a marker on every process of the run) and argv of a bounded run. */
export function prepareBounded(args: readonly string[], o: Pick<BoundedOptions, "env" | "bounds">) {
  const bounds = { ...OBJECT_READ_BOUNDS, ...o.bounds };
  // Marks every process of this run, so that what outlives a killed root can still be found.
  const marker = `PANTHEON_GIT_RUN=${process.pid}.${++runs}`;
  const env = {
    ...o.env,
    GIT_ALLOC_LIMIT: String(Math.floor(Math.min(bounds.allocBytes, Number.MAX_SAFE_INTEGER))),
    PANTHEON_GIT_RUN: marker.slice(marker.indexOf("=") + 1),
  };
  return { bounds, marker, env, argv: [...KNOBS, ...args] };
}

/**
 * Runs git within `bounds` (OBJECT_READ_BOUNDS by default): time, git's allocation limit and,
 * on Linux, the resident memory of git and every process it starts, sampled while it runs.
 */
export function runBoundedGit(args: readonly string[], o: BoundedOptions): Promise<BoundedRun> {
  const { bounds, marker, env, argv } = prepareBounded(args, o);
  const maxStdout = o.maxStdout ?? 1 << 30;
  return new Promise((done) => {
    const child = spawnGit(argv, { cwd: o.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let outBytes = 0;
    const err: Buffer[] = [];
    let stopped: Stop | null = null;
    let peakRss = 0;
    let failed: Error | undefined;
    const stop = (bound: Stop["bound"], reason: string) => {
      if (stopped !== null) return;
      stopped = { bound, reason };
      if (child.pid !== undefined) killAll(processTree(child.pid));
      killAll(processesMarked(marker));
    };
    const sample =
      process.platform === "linux" && Number.isFinite(bounds.rssBytes)
        ? setInterval(() => {
            if (child.pid === undefined || stopped !== null) return;
            let rss = 0;
            for (const pid of processTree(child.pid)) rss += anonRss(pid);
            peakRss = Math.max(peakRss, rss);
            if (rss > bounds.rssBytes) stop("memory", `used over ${mib(bounds.rssBytes)} of memory`);
          }, SAMPLE_MS)
        : null;
    const timer = Number.isFinite(bounds.timeoutMs)
      ? setTimeout(() => stop("time", `ran past ${seconds(bounds.timeoutMs)}`), bounds.timeoutMs)
      : null;
    child.stdout!.on("data", (chunk: Buffer) => {
      if (stopped !== null) return;
      const why = o.onStdout?.(chunk);
      if (why) return stop("reader", why);
      if (o.discardStdout) return;
      outBytes += chunk.length;
      if (outBytes > maxStdout) return stop("output", `wrote over ${mib(maxStdout)}`);
      out.push(chunk);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      // git's own words, for the message: the first kilobytes say why.
      if (err.length < 16) err.push(chunk);
    });
    // git may stop reading its input before the end (it died, or was stopped): not an error here.
    child.stdin!.on("error", () => {});
    child.on("error", (e) => {
      failed = e;
    });
    child.on("close", (code) => {
      if (sample) clearInterval(sample);
      if (timer) clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      stopped ??= selfStopped(stderr);
      done({
        status: stopped !== null || failed ? null : code,
        stdout: Buffer.concat(out),
        stderr,
        stopped,
        peakRss,
        ...(failed && { error: failed }),
      });
    });
    child.stdin!.end(o.input ?? "");
  });
}

/**
 * Runs git within `bounds`, synchronously: time (the process and what it started are killed)
 * and git's allocation limit. Nothing can sample memory while the caller is blocked; the
 * allocation limit, inherited by every helper git starts, is the memory bound here.
 */
export function runBoundedGitSync(
  args: readonly string[],
  o: Omit<BoundedOptions, "onStdout" | "discardStdout">,
): BoundedRun {
  const { bounds, marker, env, argv } = prepareBounded(args, o);
  const maxStdout = o.maxStdout ?? 64 * MIB;
  const r = spawnGitSync(argv, {
    cwd: o.cwd,
    env,
    ...(o.input !== undefined && { input: o.input }),
    maxBuffer: maxStdout,
    ...(Number.isFinite(bounds.timeoutMs) && {
      timeout: Math.max(1, Math.round(bounds.timeoutMs)),
      killSignal: "SIGKILL" as const,
    }),
  });
  const stderr = r.stderr?.toString("utf8") ?? "";
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  let stopped: Stop | null;
  if (code === "ETIMEDOUT") stopped = { bound: "time", reason: `ran past ${seconds(bounds.timeoutMs)}` };
  else if (code === "ENOBUFS") stopped = { bound: "output", reason: `wrote over ${mib(maxStdout)}` };
  else stopped = selfStopped(stderr);
  // spawnSync killed git alone; helpers it started were re-parented and may still run.
  if (code === "ETIMEDOUT" || code === "ENOBUFS") killAll(processesMarked(marker));
  const error = r.error && code !== "ETIMEDOUT" && code !== "ENOBUFS" ? r.error : undefined;
  return {
    status: stopped !== null || error ? null : r.status,
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr,
    stopped,
    peakRss: 0,
    ...(error && { error }),
  };
}
