import { writeSync } from "node:fs";
import { resolve } from "node:path";
import { loadKind } from "../store/cache/cache-files.js";
import { applyJournal, readJournal } from "../store/cache/cache-journal.js";
import { REF } from "../store/state/layout.js";
import { readRef } from "../store/git/ref-cas.js";
import { discoverRepo } from "../store/repo/repo.js";
import type { TaskColumns } from "../domain/task-columns.js";
import {
  ID_KINDS,
  idCandidates,
  labelCandidates,
  recordKind,
  taskIdCandidates,
  type CandidateRow,
  type IdKind,
} from "./id-candidates.js";

/**
 * Shell completion's id lookup without the CLI: the launcher runs this small bundle
 * (dist/complete.cjs) for `pantheon __complete KIND [PREFIX]`, so a TAB costs about one
 * `node -e 0` (docs/performance.md). It answers from the read cache brought to the ref's tip by
 * the journal, reading no git object; where the cache cannot answer (none yet, or the journal
 * does not lead to the tip) it returns null and the launcher runs the full command instead,
 * which reads git and saves the cache for the next TAB.
 */
export async function fastCandidates(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string[] | null> {
  // `[-C DIR] __complete KIND [PREFIX]`; anything else is the full command's to answer.
  let dir: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "-C") dir = argv[++i];
    else if (argv[i] !== "__complete") rest.push(argv[i]!);
  }
  const [kind, prefix = ""] = rest;
  if (
    !kind ||
    rest.length > 2 ||
    rest.some((a) => a.startsWith("-")) ||
    !(ID_KINDS as readonly string[]).includes(kind) ||
    (argv.includes("-C") && !dir)
  )
    return null;
  let commonDir: string;
  try {
    commonDir = discoverRepo(dir ? resolve(cwd, dir) : cwd, env).commonDir;
  } catch {
    return []; // not a repository: nothing to offer
  }
  const tip = await readRef(commonDir, REF).catch(() => null);
  if (!tip) return [];
  const record = recordKind(kind as IdKind);
  const state = loadKind(commonDir, record);
  if (!state) return null;
  if (state.commit !== tip && applyJournal(state, record, readJournal(commonDir), tip) === null) return null;
  const cols = (state.rows as { columns?: () => TaskColumns | null }).columns?.();
  if (cols) return kind === "label" ? labelCandidates(cols, prefix) : taskIdCandidates(kind as IdKind, cols, prefix);
  const rows: CandidateRow[] = [];
  for (const [, row] of state.rows) rows.push(row.value as CandidateRow);
  return idCandidates(kind as IdKind, rows, prefix);
}

/** The bundle's entry: prints the candidates, one a line; false when the full command must answer. */
export async function complete(argv: readonly string[]): Promise<boolean> {
  const found = await fastCandidates(argv, process.cwd(), process.env);
  if (found === null) return false;
  // Written synchronously: no stream machinery for a few lines read by the shell.
  if (found.length > 0) writeSync(1, `${found.join("\n")}\n`);
  return true;
}
