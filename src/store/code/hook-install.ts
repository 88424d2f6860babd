import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { RepoPaths } from "../repo/repo.js";
import type { HookInstall } from "../store.js";
import { runCodeGit } from "../repo/run-git.js";

const MARKER = "# pantheon commit-msg hook";
const CHAINED = "commit-msg.pantheon-chained";

/**
 * The line a hook kept in the working tree calls Pantheon with: `pantheon` from PATH, only on
 * a mission, and never failing the commit (teammates without Pantheon commit as before).
 */
export const HOOK_LINE = `[ -z "$PANTHEON_MISSION" ] || pantheon hook commit-msg "$1" || echo "pantheon: no mission trailers added" >&2`;

/** The hooks folder git uses for this repository (core.hooksPath, else <commondir>/hooks). */
export function hooksDir(paths: RepoPaths, env: NodeJS.ProcessEnv): string {
  const configured = runCodeGit(paths, ["rev-parse", "--git-path", "hooks"], env).stdout.trim();
  return configured
    ? configured.startsWith("/")
      ? configured
      : join(paths.workTree ?? paths.commonDir, configured)
    : join(paths.commonDir, "hooks");
}

/**
 * Installs the commit-msg hook that adds Pantheon-Mission/Pantheon-Task trailers. An existing
 * hook that is not ours is kept and chained: it runs first, and its failure still stops the commit.
 *
 * A hooks folder inside the working tree (core.hooksPath=.husky, .githooks...) holds shared
 * code: files there are committed, and a hook manager regenerates its own. Pantheon writes
 * nothing there (its hook names this machine's node and bundle when `pantheon` is not on PATH);
 * it answers "manual" with the line to add to the project's own commit-msg hook.
 */
export function installCommitMsgHook(paths: RepoPaths, env: NodeJS.ProcessEnv, cli: string[]): HookInstall {
  const dir = hooksDir(paths, env);
  const hook = join(dir, "commit-msg");
  const shared = (p: string) =>
    paths.workTree !== null && inside(p, paths.workTree) && !inside(p, paths.commonDir) && !inside(p, paths.gitDir);
  if (paths.workTree && (shared(dir) || (existsSync(hook) && shared(hook)))) {
    // husky 9 points core.hooksPath at its generated .husky/_; the project's hook is .husky/commit-msg.
    const own = basename(dir) === "_" ? join(dirname(dir), "commit-msg") : hook;
    return { result: "manual", file: relative(paths.workTree, own) || own, line: HOOK_LINE };
  }
  mkdirSync(dir, { recursive: true });
  let result: HookInstall["result"] = "installed";
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
  return { result, file: hook, line: null };
}

/** Whether `path` (through symbolic links, as far as it exists) lies inside `top`. */
function inside(path: string, top: string): boolean {
  const rel = relative(real(top), real(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // Not there yet: its folder decides.
    const parent = dirname(p);
    return parent === p ? p : join(real(parent), basename(p));
  }
}
