import { readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";

/**
 * The keep dir's clock is file times: a second name's age, a kept pack's (its `.keep`), the
 * last sweep's (`objects/pantheon/.swept`) are now minus a file's mtime. Time passes for them by
 * dating every one of those files back by `ms`, so an hour is simulated without waiting.
 */
export function passKeepTime(gitDir: string, ms: number): void {
  const back = (path: string) => {
    const st = statSync(path);
    const to = new Date(st.mtimeMs - ms);
    utimesSync(path, to, to);
  };
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else back(path);
    }
  };
  walk(join(gitDir, "objects", "pantheon"));
  const packs = join(gitDir, "objects", "pack");
  for (const name of readdirSync(packs))
    if (name.endsWith(".keep") && readFileSync(join(packs, name), "utf8").startsWith("pantheon: "))
      back(join(packs, name));
}

/** Disk used by a directory tree (blocks, each inode once: a loose object and its second name are one file). */
export function diskUsage(dir: string): number {
  const seen = new Set<string>();
  let bytes = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      const st = statSync(path);
      if (e.isDirectory()) walk(path);
      if (seen.has(`${st.dev}:${st.ino}`)) continue;
      seen.add(`${st.dev}:${st.ino}`);
      bytes += st.blocks * 512;
    }
  };
  walk(dir);
  return bytes;
}
