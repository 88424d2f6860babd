/**
 * What codex will do with a session in a folder, decided the way codex 0.169 decides it, from
 * the settings `scanCodexConfig` found in each of its configuration files. codex's sandbox is, in
 * order: the command line's, the selected profile's `sandbox_mode`, the merged top-level
 * `sandbox_mode`; with none of them, `workspace-write` for a folder with a trust decision, and
 * `read-only` for one without (until its trust dialog is answered; it offers no session in an
 * untrusted folder). `default_permissions` names a permissions profile of the user's own.
 */
import type { CodexSandboxSetting } from "./codex-config-scan.js";

/** One configuration file's settings; layers are given lowest precedence first (system, user, project). */
export interface CodexLayer {
  /** The file, for messages. */
  where: string;
  settings: readonly CodexSandboxSetting[];
}

/** A sandbox the user chose: one of codex's modes, or `custom` for a permissions profile. */
export interface CodexSandboxChoice {
  mode: "read-only" | "workspace-write" | "danger-full-access" | "custom";
  /** `~/.codex/config.toml [profiles.fast]`: where it was chosen. */
  where: string;
}

const MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

/** The sandbox the user's configuration chooses for every folder, or null where it leaves codex to pick by trust. */
export function chosenCodexSandbox(layers: readonly CodexLayer[]): CodexSandboxChoice | null {
  const last = <T>(pick: (l: CodexLayer) => T | null): T | null => {
    for (let i = layers.length - 1; i >= 0; i--) {
      const v = pick(layers[i]!);
      if (v !== null) return v;
    }
    return null;
  };
  const profile = last((l) => l.settings.find((s) => s.table === "" && s.key === "profile")?.values[0] ?? null);
  const inTable = (table: string) =>
    last((l) => {
      const s = l.settings.find(
        (x) => x.table === table && (x.key === "sandbox_mode" || x.key === "default_permissions"),
      );
      if (!s) return null;
      const where = table === "" ? l.where : `${l.where} [${table}]`;
      if (s.key === "default_permissions") return { mode: "custom", where } as const;
      const mode = MODES.find((m) => m === s.values[0]);
      // A value codex does not know fails its own start-up: not ours to guess.
      return mode ? { mode, where } : null;
    });
  return (profile !== null ? inTable(`profiles.${profile}`) : null) ?? inTable("");
}

/**
 * The trust decision codex keeps for the session's folder, looked up as codex does: the folder
 * itself, then the repository's main checkout (a linked worktree inherits its trust). `paths`
 * are those candidates and `same` compares two paths as the file system resolves them.
 */
export function codexTrust(
  layers: readonly CodexLayer[],
  paths: readonly string[],
  same: (a: string, b: string) => boolean,
): "trusted" | "untrusted" | null {
  for (const path of paths) {
    for (let i = layers.length - 1; i >= 0; i--) {
      const s = layers[i]!.settings.find(
        (x) => x.key === "trust_level" && same(x.table.slice("projects.".length), path),
      );
      if (s?.values[0] === "trusted" || s?.values[0] === "untrusted") return s.values[0];
    }
  }
  return null;
}
