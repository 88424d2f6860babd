import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RepoPaths } from "./repo.js";
import { runGit } from "./transport.js";

const MARKER = "# pantheon commit-msg hook";
const CHAINED = "commit-msg.pantheon-chained";

/** The hooks folder git uses for this repository (core.hooksPath, else <commondir>/hooks). */
export function hooksDir(paths: RepoPaths, env: NodeJS.ProcessEnv): string {
  const configured = runGit(paths, ["rev-parse", "--git-path", "hooks"], env).stdout.trim();
  return configured ? (configured.startsWith("/") ? configured : join(paths.workTree ?? paths.commonDir, configured)) : join(paths.commonDir, "hooks");
}

/**
 * Installs the commit-msg hook that adds Pantheon-Mission/Pantheon-Task trailers. An existing
 * hook that is not ours is kept and chained: it runs first, and its failure still stops the commit.
 */
export function installCommitMsgHook(paths: RepoPaths, env: NodeJS.ProcessEnv, cli: string[]): "installed" | "updated" | "chained" {
  const dir = hooksDir(paths, env);
  mkdirSync(dir, { recursive: true });
  const hook = join(dir, "commit-msg");
  let result: "installed" | "updated" | "chained" = "installed";
  if (existsSync(hook)) {
    const text = readFileSync(hook, "utf8");
    if (text.includes(MARKER)) result = "updated";
    else {
      renameSync(hook, join(dir, CHAINED));
      result = "chained";
    }
  }
  const quoted = cli.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  writeFileSync(
    hook,
    `#!/bin/sh
${MARKER} (installed by pantheon init --hooks)
hooks=$(dirname "$0")
if [ -x "$hooks/${CHAINED}" ]; then "$hooks/${CHAINED}" "$@" || exit $?; fi
[ -n "$PANTHEON_MISSION" ] || exit 0
# Provenance is a convenience: a failure here must never block the commit.
if command -v pantheon >/dev/null 2>&1; then pantheon hook commit-msg "$1" || echo "pantheon: no mission trailers added" >&2
else ${quoted} hook commit-msg "$1" || echo "pantheon: no mission trailers added" >&2; fi
exit 0
`,
  );
  chmodSync(hook, 0o755);
  return result;
}
