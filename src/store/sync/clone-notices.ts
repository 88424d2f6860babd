import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adjustSharedPerm, mkdirShared, sharedPermOf } from "../git/shared-perm.js";

/**
 * What a sync decided, kept in this clone until a later command shows it (DESIGN §3.2): one
 * file per landed merge in `<commondir>/pantheon/notices/`, written before the push that may
 * fail. One file each, so a command showing notices (unlinking what it read) never races a sync
 * appending one: no read-modify-write of a shared file.
 */
const dir = (commonDir: string) => join(commonDir, "pantheon", "notices");
const NAME = /^\d{13}-[0-9a-z]{1,40}\.json$/;

/** Keeps one notice (any JSON value); returns its id. */
export function keepNotice(commonDir: string, value: unknown, now: Date, tag: string): string {
  const folder = dir(commonDir);
  const perm = sharedPermOf(commonDir);
  mkdirShared(folder, perm);
  const id = `${String(now.getTime()).padStart(13, "0")}-${
    tag
      .replace(/[^0-9a-z]/gi, "")
      .toLowerCase()
      .slice(0, 40) || "notice"
  }.json`;
  const tmp = join(folder, `.${id}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value)}\n`);
  adjustSharedPerm(tmp, perm);
  renameSync(tmp, join(folder, id));
  return id;
}

/** Every kept notice, oldest first; an unreadable file is skipped (and dropped with the rest). */
export function readNotices(commonDir: string): Array<{ id: string; value: unknown }> {
  let names: string[];
  try {
    names = readdirSync(dir(commonDir));
  } catch {
    return []; // no folder: the usual case, one failed readdir
  }
  const out: Array<{ id: string; value: unknown }> = [];
  for (const id of names.filter((n) => NAME.test(n)).sort()) {
    try {
      out.push({ id, value: JSON.parse(readFileSync(join(dir(commonDir), id), "utf8")) as unknown });
    } catch {
      out.push({ id, value: null });
    }
  }
  return out;
}

/** Drops notices once shown. */
export function dropNotices(commonDir: string, ids: readonly string[]): void {
  for (const id of ids) {
    if (!NAME.test(id)) continue;
    try {
      unlinkSync(join(dir(commonDir), id));
    } catch {
      // shown and dropped by another command meanwhile
    }
  }
}
