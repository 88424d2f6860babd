import { readdirSync, readFileSync } from "node:fs";

/**
 * A git process and the processes it started, seen through Linux's /proc: git runs helpers
 * (`fetch` from a local path starts `upload-pack`, which starts `pack-objects`; a fetch starts
 * `index-pack`), and a bound must stop and measure all of them. Elsewhere there is no /proc:
 * the tree is the process alone and its memory is unknown (0), so only git's own allocation
 * limit and the time limit bound it there (git-bounds.ts).
 */

/** The children of `pid`, from every thread's `children` file (CONFIG_PROC_CHILDREN). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone, or no /proc
  }
  const out: number[] = [];
  for (const tid of tasks) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1");
    } catch {
      // the thread ended between the listing and the read
    }
    for (const n of text.split(" ")) if (/^\d+$/.test(n)) out.push(Number(n));
  }
  return out;
}

/** `pid` and its descendants, parents first. */
export function processTree(pid: number): number[] {
  const seen = new Set<number>([pid]);
  const order = [pid];
  for (let i = 0; i < order.length && order.length < 256; i++)
    for (const child of childrenOf(order[i]!))
      if (!seen.has(child)) {
        seen.add(child);
        order.push(child);
      }
  return order;
}

/**
 * A process's anonymous resident memory in bytes (`RssAnon`, else `VmRSS`); 0 when unknown.
 * Anonymous, not all of VmRSS: git maps pack files (up to core.packedGitLimit, 8 GiB), and
 * those pages are the file's, dropped under pressure; what a runaway git grows is its heap.
 */
export function anonRss(pid: number): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return 0;
  }
  const m = /^RssAnon:\s+(\d+) kB/m.exec(status) ?? /^VmRSS:\s+(\d+) kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** SIGKILL to each process (one that already ended is skipped). */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Processes whose environment holds `marker` (`NAME=value`): what is left of a tree whose root
 * was killed by spawnSync's timeout, its children re-parented away from it.
 */
export function processesMarked(marker: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${marker}\0`);
  const out: number[] = [];
  for (const pid of pids) {
    try {
      // A leading NUL so that the first variable matches like the others.
      const env = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`), Buffer.from([0])]);
      if (env.includes(needle)) out.push(Number(pid));
    } catch {
      // another user's process, or gone
    }
  }
  return out;
}
