/**
 * Installs the pinned versions of the four real assistants (ASSISTANTS.md) into a cache folder
 * outside the clone, once: `${XDG_CACHE_HOME:-~/.cache}/pantheon-assistants/<pkg>@<version>`.
 *
 * - As vitest's globalSetup (vitest.assistants.config.ts) it hands each result to the tests
 *   through `provide("assistantInstalls", …)`: a bin folder, or the reason the registry did not
 *   deliver the package (the tests then skip visibly with that reason).
 * - Run directly (`node scripts/check-assistants.mjs`) it only fills the cache and prints what it
 *   has, which is useful before going offline.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The versions ASSISTANTS.md was checked against; bump them together with that document. */
export const PINNED = [
  { name: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.197", bin: "claude" },
  { name: "opencode", pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
  { name: "codex", pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  { name: "gemini", pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
];

const INSTALL_TIMEOUT_MS = 15 * 60_000;

export function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "pantheon-assistants");
}

function installedVersion(dir, pkg) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

/** npm's own summary of a failure (its `npm error` lines), not the whole log. */
function npmReason(result) {
  if (result.error) return String(result.error.message ?? result.error);
  const lines = `${result.stderr ?? ""}`.split("\n").filter((l) => l.startsWith("npm error") && !/complete log/.test(l));
  return lines.slice(0, 4).join(" | ") || `npm install exited with ${result.status ?? result.signal}`;
}

/**
 * Installs one package unless that version is already in its folder. Returns
 * `{ ...entry, ok: true, dir, binDir }` or `{ ...entry, ok: false, reason }`.
 */
export function ensureInstalled(entry, root = cacheRoot()) {
  const dir = join(root, `${entry.pkg}@${entry.version}`);
  const binDir = join(dir, "node_modules", ".bin");
  const ready = () => installedVersion(dir, entry.pkg) === entry.version && existsSync(join(binDir, entry.bin));
  if (ready()) return { ...entry, ok: true, dir, binDir, fresh: false };
  // A folder left by an interrupted install is started again from nothing.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "pantheon-assistant-cache", private: true })}\n`);
  const result = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", `${entry.pkg}@${entry.version}`], {
    cwd: dir,
    encoding: "utf8",
    timeout: INSTALL_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status === 0 && ready()) return { ...entry, ok: true, dir, binDir, fresh: true };
  const reason = `npm install ${entry.pkg}@${entry.version} failed: ${npmReason(result)}`;
  rmSync(dir, { recursive: true, force: true });
  return { ...entry, ok: false, reason };
}

/** One after the other: concurrent npm installs into sibling folders have been seen to fail. */
export function ensureAll(root = cacheRoot()) {
  return Object.fromEntries(PINNED.map((e) => [e.name, ensureInstalled(e, root)]));
}

/** vitest globalSetup. */
export function setup(project) {
  const results = ensureAll();
  for (const r of Object.values(results)) {
    const what = `${r.pkg}@${r.version}`;
    process.stderr.write(r.ok ? `assistants: ${what} ${r.fresh ? "installed" : "cached"} in ${r.dir}\n` : `assistants: ${what} SKIPPED: ${r.reason}\n`);
  }
  project.provide("assistantInstalls", results);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = ensureAll();
  let missing = 0;
  for (const r of Object.values(results)) {
    if (r.ok) console.log(`✓ ${r.pkg}@${r.version} → ${join(r.binDir, r.bin)}`);
    else {
      missing++;
      console.log(`✗ ${r.pkg}@${r.version}: ${r.reason}`);
    }
  }
  console.log(`cache: ${cacheRoot()}\nrun the checks with: npx vitest run --config vitest.assistants.config.ts`);
  process.exitCode = missing ? 1 : 0;
}
