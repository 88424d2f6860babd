import { insideCodexSandbox } from "../assistants/codex.js";
import { diskFull, fsFailure, GitError, PantheonError } from "../errors.js";
import { escapeText } from "../render/escape.js";
import type { App } from "./app.js";
import { isCommanderError } from "./exit-code.js";
import { commanderUsage } from "./usage-hint.js";
import { MappedList, type View } from "./view.js";
import type { Publication } from "../services/kernel/context.js";

export const JSON_SCHEMA_VERSION = 1;

/** stdout is the result: one JSON document with --json, else the human text. */
export function printResult(app: App, v: View): void {
  if (app.json) {
    writeDocument(app.io.stdout, v, publicationFields(app.publication));
    return;
  }
  const text = v.text(app.style());
  if (app.globals.quiet) {
    const first = text.split("\n")[0] ?? "";
    if (first.startsWith("✓") || first.includes("✓")) {
      app.io.stdout.write(`${first}\n`);
      return;
    }
  }
  if (text !== "") app.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/**
 * `published` at the envelope's top level for a command that publishes by itself (DESIGN §3.5):
 * true, or false with `publishedReason`. Absent for every other command.
 */
function publicationFields(p: Publication | undefined): Record<string, unknown> {
  if (!p) return {};
  return p.published ? { published: true } : { published: false, publishedReason: p.reason ?? "not published" };
}

/** Past this many items, a list is written in slices: the same bytes, without one 20 MB string. */
const SLICE = 500;

/**
 * The --json document: `{"schemaVersion":1,"kind":…,"data":…,"changed":…}`. A long list (every
 * task of 50,000) is serialised and written a slice at a time, exactly as JSON.stringify would
 * write it whole, so peak memory does not hold the whole text (twice, as a string and as bytes).
 */
function writeDocument(out: { write(s: string): void }, v: View, extra: Record<string, unknown>): void {
  const list =
    v.data instanceof MappedList || Array.isArray(v.data)
      ? (v.data as { length: number; slice(a: number, b: number): unknown[] })
      : null;
  if (!list || list.length <= SLICE) {
    const doc: Record<string, unknown> = { schemaVersion: JSON_SCHEMA_VERSION, kind: v.kind, data: v.data };
    if (v.changed) doc.changed = v.changed;
    Object.assign(doc, extra);
    out.write(`${JSON.stringify(doc)}\n`);
    return;
  }
  const more = Object.entries(extra)
    .map(([k, x]) => `,${JSON.stringify(k)}:${JSON.stringify(x)}`)
    .join("");
  const tail = `${v.changed ? `,"changed":${JSON.stringify(v.changed)}` : ""}${more}}\n`;
  out.write(`{"schemaVersion":${JSON_SCHEMA_VERSION},"kind":${JSON.stringify(v.kind)},"data":[`);
  for (let i = 0; i < list.length; i += SLICE) {
    const part = JSON.stringify(list.slice(i, i + SLICE));
    out.write(`${i > 0 ? "," : ""}${part.slice(1, -1)}`);
  }
  out.write(`]${tail}`);
}

/** stderr gets `✗ message` and a hint, or `{"error":{...}}` with --json; no stack unless -v. */
export function printError(app: App, e: unknown, commandPath: string): void {
  let code = "E_INTERNAL";
  let message: string;
  let hint: string | undefined;
  if (e instanceof PantheonError) {
    ({ code, message, hint } = e);
  } else if (isCommanderError(e)) {
    code = "E_USAGE";
    ({ message, hint } = commanderUsage(e, commandPath));
  } else if (diskFull(e)) {
    // A write outside git's objects and refs (a cache, a planning file, a record of this clone):
    // not a bug, and not a permissions problem either.
    code = "E_DISK_FULL";
    const failed = fsFailure(e, app.cwd(), "");
    message = `A file could not be written: ${failed.reason}`;
    hint = failed.hint;
  } else {
    message = e instanceof Error ? e.message : String(e);
    hint = "this is a bug in pantheon; run again with -v and report the output";
  }
  hint ??= `${commandPath} --help`;
  if (e instanceof GitError && insideCodexSandbox(app.io.env) && /EROFS|EACCES|EPERM|ENOENT|read-only/i.test(message)) {
    // Not a permissions problem of the repository: codex's sandbox keeps .git read-only.
    hint =
      "codex's sandbox keeps .git read-only: pantheon summon makes only refs/coordination/, logs/refs/coordination/, objects/ and pantheon/ of the git common dir writable; for a codex session you start, add the writable_roots line pantheon init prints to [sandbox_workspace_write] in ~/.codex/config.toml (never the whole .git: its hooks and config run code outside the sandbox; docs/assistants.md)";
  }
  if (app.json) {
    app.io.stderr.write(`${JSON.stringify({ error: { code, message, hint: hint ?? null } })}\n`);
  } else {
    const p = app.style(app.io.stderr).paint;
    app.io.stderr.write(`${p.red("✗")} ${escapeText(message)}\n`);
    if (hint) app.io.stderr.write(`  ${p.dim("hint:")} ${escapeText(hint)}\n`);
  }
  if (app.globals.verbose && e instanceof Error && e.stack) app.io.stderr.write(`${e.stack}\n`);
}
