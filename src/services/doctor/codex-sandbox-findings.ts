import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { scanCodexConfig } from "../../domain/codex-config-scan.js";
import type { Finding } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { codexHome } from "../summon/codex-settings.js";

const CODE = "W_CODEX_GIT_WRITABLE";

/**
 * What `doctor` says about a codex configuration that lets codex's model write the git dir: its
 * hooks and config run code outside the sandbox at the Director's next git command, which is why
 * codex keeps `.git` read-only (DESIGN §5). Found in the user's `~/.codex/config.toml` (or
 * `$CODEX_HOME`) and the project's `.codex/config.toml`: `sandbox_mode = "danger-full-access"`
 * for this project, or a writable root that opens the common dir (the common dir itself, which
 * `pantheon init` once printed, a folder above it other than the repository, or a folder inside
 * it other than Pantheon's own).
 */
export async function codexSandboxFindings(
  ctx: Context,
  store: Pick<Store, "root" | "commonDir" | "writableDirs">,
): Promise<Finding[]> {
  const home = codexHome(ctx.env);
  const files = [
    { path: join(home, "config.toml"), project: false },
    ...(store.root ? [{ path: join(store.root, ".codex", "config.toml"), project: true }] : []),
  ];
  const ours = await store.writableDirs({ create: false });
  const line = `writable_roots = [${ours.map((d) => JSON.stringify(d)).join(", ")}]`;
  const out: Finding[] = [];
  for (const file of files) {
    let text: string;
    try {
      if (!existsSync(file.path)) continue;
      text = readFileSync(file.path, "utf8");
    } catch {
      continue; // unreadable: codex cannot read it either
    }
    for (const s of scanCodexConfig(text)) {
      const applies = file.project || s.table === "" || isProjectTable(s.table, store.root);
      if (!applies) continue;
      if (s.key === "sandbox_mode" && s.values[0] === "danger-full-access") {
        out.push({
          severity: "warning",
          code: CODE,
          subject: file.path,
          message: `${where(file.path, s.table)} sets sandbox_mode = "danger-full-access": codex's model may write .git/hooks and .git/config, code that runs outside any sandbox at your next git command`,
          fix: `use "workspace-write"; pantheon needs only its own folders writable: [sandbox_workspace_write] ${line}`,
          fixable: false,
        });
      }
      if (s.key !== "writable_roots") continue;
      for (const root of s.values) {
        const abs = isAbsolute(root) ? root : file.project && store.root ? resolve(store.root, root) : null;
        if (abs === null || !opensGitDir(abs, store.commonDir, ours)) continue;
        out.push({
          severity: "warning",
          code: CODE,
          subject: file.path,
          message: `${where(file.path, s.table)} lists ${JSON.stringify(root)} in writable_roots: codex's model may then write ${join(store.commonDir, "hooks")} and ${join(store.commonDir, "config")}, code that runs outside the sandbox at your next git command`,
          fix: `replace it with Pantheon's own folders: [sandbox_workspace_write] ${line}`,
          fixable: false,
        });
      }
    }
  }
  return out;
}

/**
 * Whether a writable root lets the model write the common dir's hooks or config: the common dir
 * itself or a folder above it (codex keeps only `<root>/.git` read-only: a repository's own
 * folder is safe, its parent is not), or a folder inside it that is not one of Pantheon's.
 */
export function opensGitDir(root: string, commonDir: string, ours: readonly string[]): boolean {
  const down = relative(root, commonDir);
  if (down === "") return true;
  if (!down.startsWith("..") && !isAbsolute(down)) return down.split(sep)[0] !== ".git";
  const up = relative(commonDir, root);
  if (up.startsWith("..") || isAbsolute(up)) return false;
  return !ours.some((d) => root === d || root.startsWith(d + sep));
}

function isProjectTable(table: string, root: string | null): boolean {
  return root !== null && table.startsWith("projects.") && resolve(table.slice("projects.".length)) === root;
}

function where(file: string, table: string): string {
  return table === "" ? file : `${file} [${table}]`;
}
