import { existsSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

/** The slow poll behind fs.watch: some file systems (network mounts, containers) send no events. */
const POLL_MS = 2_000;
/** Events come in bursts (a lock, a rename, a reflog line): one look after the burst. */
const SETTLE_MS = 40;

/**
 * Calls `onChange` when refs/coordination/main moves (its loose file, or packed-refs after a
 * `git pack-refs`) or when a live file in <commondir>/pantheon/live/ changes (mission control):
 * fs.watch on those folders, plus a slow poll. The version compared is the ref's value and the
 * live files' names, sizes and times, so only real changes are told.
 */
export async function watchState(
  commonDir: string,
  tip: () => Promise<string | null>,
  onChange: (version: string) => void,
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
  const poll = setInterval(() => void look(), POLL_MS);
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
  const live = join(commonDir, "pantheon", "live");
  let stamps = "";
  try {
    for (const name of readdirSync(live).sort()) {
      const s = statSync(join(live, name), { throwIfNoEntry: false });
      if (s) stamps += `${name}:${s.size}:${s.mtimeMs};`;
    }
  } catch {
    // No live folder yet: nothing summoned in this clone.
  }
  return `${(await tip()) ?? ""}|${stamps}`;
}
