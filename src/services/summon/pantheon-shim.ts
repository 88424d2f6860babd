import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodeCrypto } from "../../lazy-require.js";

/**
 * A folder holding one executable, `pantheon`, that runs this very Pantheon (`self`: the node
 * binary and the script this process runs), for summon to put first on a session's PATH (DESIGN
 * §5): the persona and the session hooks then run the Pantheon that summoned them, even from a
 * login shell and whatever else `pantheon` names on the user's PATH.
 *
 * It lives in `<commondir>/pantheon-bin/<hash of self>/`, beside Pantheon's folder rather than
 * in it: codex's sandbox lets the model write `<commondir>/pantheon/` (a writable root), and a
 * `pantheon` the model rewrote would run outside the sandbox at the next session hook. One
 * folder per install, so two versions summoning in one clone never swap each other's. The
 * paths come from this process, never from a record.
 */
export function writePantheonShim(commonDir: string, self: readonly string[]): string {
  const hash = nodeCrypto().createHash("sha256").update(self.join("\0")).digest("hex").slice(0, 16);
  const dir = join(commonDir, "pantheon-bin", hash);
  const file = join(dir, "pantheon");
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const text = `#!/bin/sh\n# Written by pantheon summon: runs the Pantheon that summoned this session.\nexec ${self.map(quote).join(" ")} "$@"\n`;
  try {
    if (readFileSync(file, "utf8") === text) return dir;
  } catch {
    // not written yet
  }
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  // Written whole, then renamed: a session of another summon may be running the old one.
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o755 });
  chmodSync(tmp, 0o755);
  renameSync(tmp, file);
  return dir;
}
