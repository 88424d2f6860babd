// Helpers shared by the soak's modes (scripts/soak.mjs): the environment every git and pantheon
// process runs in, a seeded PRNG, and how a refusal's message is reduced to a class.
import { execFileSync, spawnSync } from "node:child_process";

export const REF = "refs/coordination/main";

/** The environment of every process the soak runs: no variable of the user's that changes git or pantheon. */
export function cleanEnv(extra = {}) {
  const env = {};
  const drop = /^(GIT_|PANTHEON_|SSH_AUTH_SOCK$|CLAUDECODE|GEMINI_CLI|CODEX_|OPENCODE|AGENT$|NO_COLOR|FORCE_COLOR|CI$)/;
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) env[k] = v;
  return {
    ...env,
    NO_COLOR: "1",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Soak Director",
    GIT_AUTHOR_EMAIL: "soak@example.com",
    GIT_COMMITTER_NAME: "Soak Director",
    GIT_COMMITTER_EMAIL: "soak@example.com",
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "gc.auto",
    GIT_CONFIG_VALUE_0: "0",
    ...extra,
  };
}

export const ENV = cleanEnv();

export function git(cwd, ...args) {
  return execFileSync("git", args, {
    cwd,
    env: ENV,
    encoding: "utf8",
    maxBuffer: 256 << 20,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Runs the bundle `bin` as a process, as a user would; never throws. */
export function runPantheon(bin, cwd, argv, env = ENV) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [bin, ...argv], { cwd, env, encoding: "utf8", maxBuffer: 64 << 20 });
  return {
    status: r.status,
    signal: r.signal,
    stdout: r.stdout ?? "",
    stderr: r.stderr ?? "",
    t0,
    t1: Date.now(),
    ms: Date.now() - t0,
    error: r.error,
  };
}

/** mulberry32: small, fast, good enough to pick commands. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

export function hashSeed(...parts) {
  let h = 2166136261;
  for (const ch of parts.join(":")) h = Math.imul(h ^ ch.codePointAt(0), 16777619);
  return h >>> 0;
}

export const STACK = /^\s+at \S/m;

/** A refusal's message as a class: ids, numbers, names and quoted text replaced. */
export function messageClass(message) {
  return message
    .replace(/^✗ /, "")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b[A-Z]{3}-[CHML]-\d{4,}\b/g, "<task>")
    .replace(/\bEPC-[CHML]-\d{4,}\b/g, "<epic>")
    .replace(/\bMSN-\d{4,}(:[a-z]+-[a-z]+)?/g, "<mission>")
    .replace(/\bRVW-\d{3,}\b/g, "<review>")
    .replace(/\bSoak[A-Za-z]+\d*\b/g, "<persona>")
    .replace(/\b[0-9a-f]{7,40}\b/g, "<commit>")
    .replace(/\b\d+(\.\d+)?\b/g, "<n>")
    .replace(/\s+/g, " ")
    .slice(0, 130);
}

export function pad(s, n) {
  s = String(s);
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}
