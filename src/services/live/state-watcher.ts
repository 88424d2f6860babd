import { existsSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { liveSignature } from "./live-status.js";

/** The slow poll behind fs.watch: some file systems (network mounts, containers) send no events. */
const POLL_MS = 2_000;
/** Events come in bursts (a lock, a rename, a reflog line): one look after the burst. */
const SETTLE_MS = 40;

/**
 * Calls `onChange` when refs/coordination/main moves (its loose file, or packed-refs after a
 * `git pack-refs`) or when a live file in <commondir>/pantheon/live/ changes (mission control):
 * fs.watch on those folders, plus a poll (`pollMs`, 2 s by default). The version compared is the
 * ref's value and the live files' names, sizes and times, so only real changes are told. The one
 * watcher of the state: `pantheon web`'s server-sent events and `status`/`dashboard --watch`.
 */
export async function watchState(
  commonDir: string,
  tip: () => Promise<string | null>,
  onChange: (version: string) => void,
  o: { pollMs?: number } = {},
): Promise<{ version: () => string; close: () => void }> {
  const dirs = [
    join(commonDir, "refs", "coordination"),
    commonDir,
    join(commonDir, "pantheon"),
    join(commonDir, "pantheon", "live"),
  ];
  let last = await stateVersion(commonDir, tip);
  let timer: NodeJS.Timeout | undefined;
  let looking = false;
  const look = async () => {
    timer = undefined;
    if (looking) return soon();
    looking = true;
    try {
      const now = await stateVersion(commonDir, tip).catch(() => last);
      if (now !== last) {
        last = now;
        onChange(now);
      }
      rewatch();
    } finally {
      looking = false;
    }
  };
  const soon = () => {
    timer ??= setTimeout(() => void look(), SETTLE_MS);
  };
  const watchers = new Map<string, FSWatcher>();
  // A folder made later (live/ appears with the first summon) is watched from the next look on.
  const rewatch = () => {
    for (const d of dirs) {
      if (watchers.has(d) || !existsSync(d)) continue;
      try {
        const w = watch(d, { persistent: false }, soon);
        w.on("error", () => {
          w.close();
          watchers.delete(d);
        });
        watchers.set(d, w);
      } catch {
        // Not watchable here: the poll covers it.
      }
    }
  };
  rewatch();
  const poll = setInterval(() => void look(), o.pollMs ?? POLL_MS);
  poll.unref();
  return {
    version: () => last,
    close: () => {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
    },
  };
}

/** The ref's value (the store reads it, loose or packed) and a stamp of every live file. */
export async function stateVersion(commonDir: string, tip: () => Promise<string | null>): Promise<string> {
  return `${(await tip()) ?? ""}|${liveSignature(commonDir)}`;
}
