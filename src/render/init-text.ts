import type { SettingChange } from "../domain/config-keys.js";
import type { Project } from "../domain/schemas/project.js";
import { changeLine } from "./config-view.js";
import { displayWidth, escapeText } from "./escape.js";
import { check, type Style } from "./paint.js";
import { wrapLine } from "./wrap-text.js";

/** One assistant's MCP configuration as `init --mcp` left it (services/register-mcp.ts's McpRegistration). */
export interface InitMcpLine {
  assistant: string;
  path: string;
  action: string;
  add: string | null;
  note: string | null;
}

/** What `init` reports: its `--json` data (the fields the text reads). */
export interface InitReport {
  project: Pick<Project, "name" | "roles">;
  stateCreated: boolean;
  adopted: string | null;
  adoptedRef: string | null;
  refspecAdded: string | null;
  refspec: string | null;
  created: string[];
  updated: string[];
  existing: string[];
  leftAlone: Array<{ path: string; reason: string }>;
  changes: SettingChange[];
  /** What `--hooks` did: installed, updated, chained, manual; null without it. */
  hook: string | null;
  hookFile: string | null;
  hookLine: string | null;
  mcp: InitMcpLine[];
  codexWritableRoots: string[] | null;
}

/** What only the text needs: the `--config` file named, and codex's writable-roots line (made by its adapter). */
export interface InitTextExtras {
  configFile: string | null;
  codexLine: string | null;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** `.pantheon/ (11 files), .claude/ (3), AGENTS.md`: one line however many files. */
function groupPaths(paths: string[]): string {
  const groups = new Map<string, number>();
  for (const p of paths) {
    if (p.endsWith("/") && p.split("/").length > 2) {
      groups.set(p, 0);
      continue;
    }
    const top = p.includes("/") ? `${p.split("/")[0]}/` : p;
    groups.set(top, (groups.get(top) ?? 0) + 1);
  }
  return [...groups]
    .map(([top, n]) => (top.endsWith("/") && n > 0 ? `${top} (${n} file${n === 1 ? "" : "s"})` : top))
    .join(", ");
}

/**
 * The report on a terminal: prose wrapped at words to its width, each continuation under the
 * text it continues (file lists after their label, a command's description after the command);
 * lines to copy (`verbatim`: commands, a hook line, TOML, JSON) are never broken.
 */
function wrapReport(s: Style, lines: string[], verbatim: ReadonlySet<string>): string {
  return lines
    .map((line) => {
      if (verbatim.has(line)) return line;
      const plain = line.replace(ANSI, "");
      const hang = /^ {2}(created|updated|kept|mcp) /.test(plain)
        ? 10
        : /^ {2}! /.test(plain)
          ? 4
          : /^ {2}pantheon \S.*? {2,}(?=\S)/.exec(plain)?.[0].length;
      const lead = /^ */.exec(plain)![0].length;
      return wrapLine(s, line, hang ?? (lead > 0 ? lead + 2 : 0));
    })
    .join("\n");
}

/** `mcp     claude .mcp.json (created), ...`, then what to add by hand where merging was not safe. */
function mcpLines(mcp: InitMcpLine[], keep: (line: string) => string): string[] {
  if (mcp.length === 0) return [];
  const lines = [`  ${"mcp".padEnd(7)} ${mcp.map((m) => `${m.assistant} ${m.path} (${m.action})`).join(", ")}`];
  for (const m of mcp) {
    if (m.note) lines.push(`  ${m.assistant}: ${escapeText(m.note)}`);
    if (m.add && m.action !== "existing")
      lines.push(
        ...m.add
          .trimEnd()
          .split("\n")
          .map((l) => keep(`      ${escapeText(l)}`)),
      );
  }
  return lines;
}

/** `pantheon init`'s report as text: what was set up, the files, what to commit, and (the first day) what next. */
export function initText(s: Style, r: InitReport, x: InitTextExtras): string {
  const verbatim = new Set<string>();
  const keep = (line: string) => {
    verbatim.add(line);
    return line;
  };
  const name = escapeText(r.project.name);
  const lines = [
    r.adopted
      ? check(s, `Adopted the Pantheon state of "${name}" from ${r.adopted} (${r.adoptedRef})`)
      : r.stateCreated
        ? check(s, `Initialized Pantheon for "${name}" on refs/coordination/main`)
        : x.configFile === null
          ? check(s, `Pantheon is already set up for "${name}"; added what was missing`)
          : check(
              s,
              `Pantheon is already set up for "${name}"; ${r.changes.length === 0 ? `${escapeText(x.configFile)} changes no setting` : `applied ${escapeText(x.configFile)}:`}`,
            ),
    ...r.changes.map((c) => `  ${changeLine(c)}`),
  ];
  const files = (list: string[]) => list.filter((f) => !f.endsWith("/"));
  // A folder is worth naming only when nothing inside it is named (an empty planning/).
  const shown = (list: string[]) =>
    list.filter((f) => !f.endsWith("/") || !list.some((g) => g !== f && g.startsWith(f)));
  for (const [label, list] of [
    ["created", shown(r.created)],
    ["updated", shown(r.updated)],
    ["kept", shown(r.existing)],
  ] as const) {
    if (list.length === 0) continue;
    const text = `  ${label.padEnd(7)} ${groupPaths(list)}`;
    lines.push(label === "kept" ? s.paint.dim(text) : text);
  }
  for (const f of r.leftAlone) lines.push(`  ${s.paint.yellow("!")} ${escapeText(f.path)}: ${escapeText(f.reason)}`);
  lines.push(...mcpLines(r.mcp, keep));
  const mcpFiles = r.mcp.filter((m) => m.action === "created" || m.action === "updated").map((m) => m.path);
  const toCommit = [...new Set([...files(r.created), ...files(r.updated), ...mcpFiles].map((f) => f.split("/")[0]!))];
  if (toCommit.length > 0) {
    // A command is never broken inside: on a narrow terminal it gets a line of its own.
    const command = `git add ${toCommit.join(" ")} && git commit -m "Set up Pantheon"`;
    const one = `Commit these files: ${command}`;
    if (!s.tty || displayWidth(one) <= s.width) lines.push("", keep(one));
    else lines.push("", "Commit these files:", keep(`  ${command}`));
  }
  if (r.refspecAdded)
    lines.push(
      `  ${escapeText(`added to remote.${r.refspecAdded}.fetch: ${r.refspec}`)} (git fetch brings the state too)`,
    );
  if (r.hook === "manual") {
    lines.push(
      `  the commit-msg hook is yours to edit: git runs hooks from the working tree (${r.hookFile} is shared code), so Pantheon writes nothing there. Add this line to ${r.hookFile}:`,
      keep(`    ${r.hookLine}`),
    );
  } else if (r.hook)
    lines.push(`  ${r.hook} the commit-msg hook (adds Pantheon-Mission/Pantheon-Task trailers on a mission)`);
  if (r.codexWritableRoots && x.codexLine !== null && (r.stateCreated || r.adopted)) {
    // codex's sandbox keeps .git read-only; summon adds pantheon's folders of it, a
    // session the user starts needs this line (never the whole common dir).
    lines.push(
      "",
      "For codex sessions you start yourself (summon does this for its own), add to ~/.codex/config.toml:",
      "  [sandbox_workspace_write]",
      keep(`  ${escapeText(x.codexLine)}`),
    );
  }
  // The first day only: a re-run is about files and settings.
  if (r.stateCreated || r.adopted) {
    const role = r.project.roles.includes("engineer")
      ? "engineer"
      : (r.project.roles.find((x) => x !== "administrator") ?? "engineer");
    lines.push(
      "",
      "Next:",
      `  pantheon summon ${role.padEnd(13)} start an AI assistant as a${/^[aeio]/.test(role) ? "n" : ""} ${role} persona (or /summon inside one)`,
      keep(`  pantheon task create --title "..." --role ${role}`),
      "  pantheon dashboard            who works on what, what is blocked, what waits for review",
      r.adopted
        ? `  pantheon sync                 share your changes; claims, mission starts and ends and reviews publish themselves`
        : "  pantheon sync                 share the state with teammates through your git remote (publish it once now)",
      "",
      r.adopted
        ? `Teammates get the state the same way: git clone, then any pantheon command (it takes ${r.adopted}'s state).`
        : "Teammates: after your first pantheon sync, they git clone and run any pantheon command: it takes the state from the remote (a plain git clone or pull brings none).",
    );
  }
  return wrapReport(s, lines, verbatim);
}
