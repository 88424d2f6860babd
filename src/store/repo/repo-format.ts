/**
 * The repository's on-disk format (DESIGN §2.2): `core.repositoryformatversion` and the
 * `extensions.*` of the common dir's own config file, which is where git reads them
 * (read_repository_format: that one file, no includes). Pantheon writes SHA-1 loose objects and
 * loose refs itself, so a repository whose format says otherwise must be refused before a
 * single object is written: git would then find SHA-1 objects in a SHA-256 object store, or a
 * loose ref a reftable repository never reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UnsupportedRepositoryError } from "../../errors.js";
import { parseGitConfig } from "./git-config.js";

export interface UnsupportedSetting {
  /** The config key as git documents it ("extensions.objectFormat"). */
  key: string;
  value: string;
  why: string;
}

/**
 * git 2.39's extensions, each judged (setup.c handle_extension_v0 / handle_extension):
 * - noop, noop-v1: do nothing by definition.
 * - preciousObjects: objects must never be deleted; Pantheon never deletes an object (only its
 *   own temporary files), so it is honoured as it stands.
 * - partialClone: objects may be missing locally and fetched by git on demand. Pantheon writes
 *   complete objects, and a state object it cannot find is reported as missing, never assumed.
 * - worktreeConfig: per-worktree config files. Identity is asked of git itself, and the settings
 *   Pantheon reads (core.sharedRepository) also read `config.worktree`.
 * Anything else in a version-1 repository is refused, as git 2.39 refuses it: its meaning is
 * unknown, so writing beside it is not known to be safe.
 */
const HARMLESS = new Set(["noop", "noop-v1", "preciousobjects", "partialclone", "worktreeconfig"]);

/** How git spells the keys (config keys are case-insensitive; messages use the documented case). */
const SPELLING: Record<string, string> = {
  objectformat: "objectFormat",
  refstorage: "refStorage",
  compatobjectformat: "compatObjectFormat",
  preciousobjects: "preciousObjects",
  partialclone: "partialClone",
  worktreeconfig: "worktreeConfig",
};

/** What in this config text Pantheon cannot write beside; empty when the format is one it implements. */
export function unsupportedSettings(configText: string): UnsupportedSetting[] {
  const entries = parseGitConfig(configText);
  const last = (key: string) => entries.filter((e) => e.key === key).at(-1)?.value;
  const out: UnsupportedSetting[] = [];
  const versionText = last("core.repositoryformatversion") ?? "0";
  const version = /^\s*[+-]?\d+\s*$/.test(versionText) ? Number(versionText) : NaN;
  if (!(version === 0 || version === 1)) {
    out.push({
      key: "core.repositoryformatversion",
      value: versionText,
      why: "git itself only knows versions 0 and 1",
    });
    return out;
  }
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e.key.startsWith("extensions.") || e.key.split(".").length !== 2) continue;
    const name = e.key.slice("extensions.".length);
    seen.add(name);
  }
  for (const name of seen) {
    const value = last(`extensions.${name}`) ?? "";
    const key = `extensions.${SPELLING[name] ?? name}`;
    // These three change what an object id or a ref file IS: refused in any version (newer git
    // treats them as version-1-only and refuses a version-0 repository that sets them).
    if (name === "objectformat") {
      if (value !== "sha1") out.push({ key, value, why: "objects are not SHA-1" });
    } else if (name === "refstorage") {
      if (value !== "files") out.push({ key, value, why: "refs are not loose files" });
    } else if (name === "compatobjectformat") {
      out.push({ key, value, why: "a second object format is kept alongside" });
    } else if (version === 1 && !HARMLESS.has(name)) {
      // Version 0 repositories ignore unknown extensions, as git does.
      out.push({ key, value, why: "an extension Pantheon does not know" });
    }
  }
  return out;
}

/** Reads the common dir's config and lists what Pantheon cannot write beside (no config: nothing). */
export function repositoryFormatProblems(commonDir: string): UnsupportedSetting[] {
  let text: string;
  try {
    text = readFileSync(join(commonDir, "config"), "utf8");
  } catch {
    return []; // no config file: a version-0 repository, as git reads it
  }
  return unsupportedSettings(text);
}

/** Throws UnsupportedRepositoryError for the first problem (all are in its data). */
export function assertSupportedFormat(commonDir: string): void {
  const problems = repositoryFormatProblems(commonDir);
  const first = problems[0];
  if (first) throw new UnsupportedRepositoryError(first.key, first.value, first.why, { problems });
}
