/**
 * The identity commits are made with (DESIGN §1.7): exactly what `git commit` would use in this
 * directory, so it is asked of git itself (`git var GIT_AUTHOR_IDENT` / `GIT_COMMITTER_IDENT`),
 * which applies every rule (environment, `git -c` from a parent git through
 * GIT_CONFIG_PARAMETERS, includeIf gitdir:/onbranch:/hasconfig:, global, repository and
 * worktree config, $EMAIL). Spawning git costs ~12 ms, so the answer is cached per clone in
 * `<commondir>/pantheon/identity-v1.json`, keyed by everything that can change it: the
 * environment variables git reads, this worktree's git dir and branch, and the size, times and
 * inode of every config file git would read, including every include.path and includeIf target
 * (whatever its condition: the key must not depend on evaluating conditions the way git does).
 * A mutation with a warm cache reads two small files and stats a handful; it spawns nothing.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { FALLBACK_IDENTITY, loadGitConfig, parseGitConfig, resolveIdentity } from "./git-config.js";
import { spawnGit } from "../git/git-spawn.js";
import type { RepoPaths } from "./repo.js";
import { adjustSharedPerm, ensureParentDir, sharedPermOf } from "../git/shared-perm.js";
import { nodeCrypto } from "../../lazy-require.js";

export interface Person {
  name: string;
  email: string;
}

export interface CommitIdentity {
  author: Person;
  committer: Person;
  /** "git": as git var printed it; "fallback": git has none, the Director placeholder (or partial config). */
  source: "git" | "fallback";
}

const CACHE_VERSION = 1;
const MAX_ENTRIES = 16;
const MAX_INCLUDE_DEPTH = 10;

/**
 * GIT_* variables that cannot change an identity but do change from one invocation to the next
 * (a hook's index file, tracing, dates): left out of the key so they do not defeat the cache.
 */
const VOLATILE =
  /^GIT_(INDEX_FILE|AUTHOR_DATE|COMMITTER_DATE|TRACE.*|REFLOG_ACTION|PREFIX|EDITOR|SEQUENCE_EDITOR|PAGER|ASKPASS|SSH.*|TERMINAL_PROMPT|EXEC_PATH|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|QUARANTINE_PATH|PUSH_OPTION.*|PROTOCOL.*|HTTP_.*|LITERAL_PATHSPECS|GLOB_PATHSPECS|NOGLOB_PATHSPECS|ICASE_PATHSPECS|OPTIONAL_LOCKS|FLUSH|PROGRESS_DELAY|MERGE_.*|DIFF.*|EXTERNAL_DIFF)$/;

/** The part of the key that needs no file system: environment, user, host, git dir and branch. */
function envKey(paths: RepoPaths, env: NodeJS.ProcessEnv): string {
  const vars = Object.keys(env)
    .filter(
      (k) => (k.startsWith("GIT_") && !VOLATILE.test(k)) || k === "EMAIL" || k === "HOME" || k === "XDG_CONFIG_HOME",
    )
    .sort()
    .map((k) => `${k}=${env[k]}`);
  return JSON.stringify([
    vars,
    process.getuid?.() ?? -1,
    hostname(),
    paths.gitDir,
    paths.commonDir,
    branchOf(paths.gitDir),
  ]);
}

/** The branch HEAD names (includeIf onbranch:), or "(detached)": a detached HEAD matches no branch. */
function branchOf(gitDir: string): string {
  try {
    const head = readFileSync(join(gitDir, "HEAD"), "utf8");
    const m = /^ref: (\S+)/.exec(head);
    return m ? m[1]! : "(detached)";
  } catch {
    return "(no HEAD)";
  }
}

/** Size, mtime, ctime and inode; "-" for a file that is not there (creating it must miss the cache). */
function signature(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  } catch {
    return "-";
  }
}

/** The config files git reads here, before includes (the cascade of config.c's do_git_config_sequence). */
function topConfigFiles(paths: RepoPaths, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const files: string[] = [];
  if (!/^(1|true|yes|on)$/i.test(env.GIT_CONFIG_NOSYSTEM ?? "")) files.push(env.GIT_CONFIG_SYSTEM || "/etc/gitconfig");
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    if (env.GIT_CONFIG_GLOBAL !== "") files.push(env.GIT_CONFIG_GLOBAL);
  } else {
    files.push(
      env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, "git", "config") : join(home, ".config", "git", "config"),
    );
    files.push(join(home, ".gitconfig"));
  }
  files.push(join(paths.commonDir, "config"), join(paths.gitDir, "config.worktree"));
  // `git -c include.path=/abs/file` (GIT_CONFIG_PARAMETERS) or GIT_CONFIG_KEY_n: the file's
  // content is not in the environment, so it is stat'ed like the others.
  const fromCommandLine: string[] = [];
  const params = env.GIT_CONFIG_PARAMETERS ?? "";
  for (const m of params.matchAll(/'([^']*)'='((?:[^']|'\\'')*)'/g))
    if (isInclude(m[1]!.toLowerCase())) fromCommandLine.push(m[2]!.replace(/'\\''/g, "'"));
  for (let n = 0; n < Number(env.GIT_CONFIG_COUNT ?? 0) && n < 1000; n++) {
    if (isInclude((env[`GIT_CONFIG_KEY_${n}`] ?? "").toLowerCase()))
      fromCommandLine.push(env[`GIT_CONFIG_VALUE_${n}`] ?? "");
  }
  return [...files, ...fromCommandLine.filter((f) => isAbsolute(f) || f.startsWith("~/"))];
}

const isInclude = (key: string): boolean =>
  key === "include.path" || (key.startsWith("includeif.") && key.endsWith(".path"));

/** Every file those include, at any depth and under any condition. */
function withIncludes(files: string[], env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const out = new Set<string>();
  const visit = (path: string, depth: number): void => {
    if (out.has(path)) return;
    out.add(path);
    if (depth >= MAX_INCLUDE_DEPTH) return;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return;
    }
    for (const e of parseGitConfig(text)) {
      if (!isInclude(e.key) || e.value === "") continue;
      const target = e.value.startsWith("~/") ? join(home, e.value.slice(2)) : e.value;
      visit(isAbsolute(target) ? target : resolve(dirname(path), target), depth + 1);
    }
  };
  for (const f of files) visit(f.startsWith("~/") ? join(home, f.slice(2)) : f, 0);
  return [...out];
}

interface CacheEntry {
  key: string;
  files: Array<[string, string]>;
  id: CommitIdentity;
}

function cacheFile(commonDir: string): string {
  return join(commonDir, "pantheon", `identity-v${CACHE_VERSION}.json`);
}

function loadEntries(commonDir: string): CacheEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(cacheFile(commonDir), "utf8")) as { entries?: CacheEntry[] };
    return Array.isArray(parsed.entries) ? parsed.entries : [];
  } catch {
    return [];
  }
}

function isPerson(p: unknown): p is Person {
  return !!p && typeof (p as Person).name === "string" && typeof (p as Person).email === "string";
}

/** The cached identity for this key, when every file it was computed from is unchanged. */
function cached(commonDir: string, key: string): CommitIdentity | null {
  for (const e of loadEntries(commonDir)) {
    if (e.key !== key || !Array.isArray(e.files)) continue;
    if (!isPerson(e.id?.author) || !isPerson(e.id?.committer)) return null;
    return e.files.every(([path, sig]) => signature(path) === sig) ? e.id : null;
  }
  return null;
}

function save(commonDir: string, entry: CacheEntry): void {
  try {
    const path = cacheFile(commonDir);
    const entries = [entry, ...loadEntries(commonDir).filter((e) => e.key !== entry.key)].slice(0, MAX_ENTRIES);
    ensureParentDir(commonDir, path);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ entries }));
    adjustSharedPerm(tmp, sharedPermOf(commonDir));
    renameSync(tmp, path);
  } catch {
    // read-only common dir: git is asked again next time
  }
}

/** "Name <email> 1700000000 +0000" → name and email; null when git printed something else. */
export function parseIdent(line: string): Person | null {
  const m = /^(.*?) ?<([^<>]*)> -?\d+ [+-]\d{4}$/.exec(line.trim());
  return m ? { name: m[1]!, email: m[2]! } : null;
}

function gitVar(paths: RepoPaths, env: NodeJS.ProcessEnv, name: string): Promise<{ ok: boolean; out: string }> {
  return new Promise((done) => {
    // In the worktree (or the git dir of a bare repository), as `git commit` there would run:
    // includeIf gitdir: and onbranch: then see this repository. GIT_DIR is left to the
    // environment, as a hook or an alias hands it over.
    const child = spawnGit(["var", name], {
      cwd: paths.workTree ?? paths.gitDir,
      env: { ...env, GIT_TERMINAL_PROMPT: "0" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (d: string) => (out += d));
    child.on("error", () => done({ ok: false, out: "" }));
    child.on("close", (code) => done({ ok: code === 0, out }));
  });
}

/** Git's identity for commits made here; cached per clone (see the module comment). */
export async function commitIdentity(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<CommitIdentity> {
  const key = nodeCrypto().createHash("sha1").update(envKey(paths, env)).digest("hex");
  const hit = cached(paths.commonDir, key);
  if (hit) return hit;
  // Stat before asking: a file edited while git runs then misses next time rather than never.
  const files = withIncludes(topConfigFiles(paths, env), env).map((p): [string, string] => [p, signature(p)]);
  const [a, c] = await Promise.all([gitVar(paths, env, "GIT_AUTHOR_IDENT"), gitVar(paths, env, "GIT_COMMITTER_IDENT")]);
  const author = a.ok ? parseIdent(a.out) : null;
  const committer = c.ok ? parseIdent(c.out) : null;
  let id: CommitIdentity;
  if (author && committer) id = { author, committer, source: "git" };
  else {
    // git refused (it has no usable identity) or is not installed: the rules as read in-process
    // fill what is missing, with the Director placeholder where nothing is set at all.
    const own = resolveIdentity(env, loadGitConfig(paths.commonDir, env));
    const filled = { name: own.name, email: own.email };
    id = { author: author ?? filled, committer: committer ?? filled, source: "git" };
  }
  if (id.author.email === FALLBACK_IDENTITY.email) id.source = "fallback";
  save(paths.commonDir, { key, files, id });
  return id;
}
