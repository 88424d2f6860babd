/**
 * Installs the pinned versions of the four real assistants (ASSISTANTS.md) into a cache folder
 * outside the clone, once: `${XDG_CACHE_HOME:-~/.cache}/pantheon-assistants/<pkg>@<version>`.
 *
 * - As vitest's globalSetup (vitest.assistants.config.ts) it hands each result to the tests
 *   through `provide("assistantInstalls", …)`: a bin folder, or the reason the registry did not
 *   deliver the package. Elsewhere the tests then skip visibly with that reason; in CI
 *   (`CI=true`) an assistant that cannot be installed fails the run.
 * - It compares each pinned version with the registry's newest and prints a warning when they
 *   differ (the pins are what docs/assistants.md was checked against; bump them together).
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
  // The registry's newest claude-code when issue 13 was checked; the claude tests run on both.
  { name: "claude-2.1.330", pkg: "@anthropic-ai/claude-code", version: "2.1.330", bin: "claude" },
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
  const lines = `${result.stderr ?? ""}`
    .split("\n")
    .filter((l) => l.startsWith("npm error") && !/complete log/.test(l));
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
  const result = spawnSync(
    "npm",
    ["install", "--prefix", dir, "--no-audit", "--no-fund", `${entry.pkg}@${entry.version}`],
    {
      cwd: dir,
      encoding: "utf8",
      timeout: INSTALL_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  if (result.status === 0 && ready()) return { ...entry, ok: true, dir, binDir, fresh: true };
  const reason = `npm install ${entry.pkg}@${entry.version} failed: ${npmReason(result)}`;
  rmSync(dir, { recursive: true, force: true });
  return { ...entry, ok: false, reason };
}

/** One after the other: concurrent npm installs into sibling folders have been seen to fail. */
export function ensureAll(root = cacheRoot()) {
  return Object.fromEntries(PINNED.map((e) => [e.name, ensureInstalled(e, root)]));
}

/** The registry's newest version of a package (`npm view`), or null when the registry cannot say. */
export function newestVersion(pkg) {
  const r = spawnSync("npm", ["view", pkg, "version"], {
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const v = r.status === 0 ? r.stdout.trim().split("\n").at(-1)?.trim() : "";
  return v && /^\d+\.\d+\.\d+/.test(v) ? v : null;
}

/** One line per package: pinned against the registry's newest; a difference is a warning, never a failure. */
export function compareWithRegistry(entries = PINNED) {
  return entries.map((e) => {
    const newest = newestVersion(e.pkg);
    if (newest === null) return `assistants: WARNING could not ask the registry for the newest ${e.pkg}`;
    return newest === e.version
      ? `assistants: ${e.pkg} ${e.version} is the registry's newest`
      : `assistants: WARNING ${e.pkg} is pinned at ${e.version}; the registry's newest is ${newest} (check it and bump PINNED with docs/assistants.md)`;
  });
}

/** vitest globalSetup. */
export function setup(project) {
  const results = ensureAll();
  const ci = process.env.CI === "true";
  for (const r of Object.values(results)) {
    const what = `${r.pkg}@${r.version}`;
    process.stderr.write(
      r.ok
        ? `assistants: ${what} ${r.fresh ? "installed" : "cached"} in ${r.dir}\n`
        : `assistants: ${what} ${ci ? "FAILED" : "SKIPPED"}: ${r.reason}\n`,
    );
  }
  for (const line of compareWithRegistry()) process.stderr.write(`${line}\n`);
  const missing = Object.values(results).filter((r) => !r.ok);
  if (ci && missing.length > 0) {
    throw new Error(
      `in CI every assistant must install; could not install ${missing.map((r) => `${r.pkg}@${r.version}`).join(", ")}`,
    );
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
  for (const line of compareWithRegistry()) console.log(line);
  console.log(`cache: ${cacheRoot()}\nrun the checks with: npm run test:assistants`);
  process.exitCode = missing ? 1 : 0;
}
