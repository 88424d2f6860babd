import { fstatSync, statSync } from "node:fs";

/**
 * Whether fd is a terminal, without loading node:tty (which loads net and the stream stack,
 * ~5 ms) when it plainly is not: a pipe, a file, or /dev/null.
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    if (st.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    return false;
  }
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}
