import { PRIORITIES } from "../../domain/priority.js";
import { TASK_ROLES } from "../../domain/roles.js";
import { TASK_STATUSES } from "../../domain/task-status.js";

/**
 * The tasks' read cache as binary typed columns, in three files. At 50,000 tasks a JSON cache
 * took ~16 ms to parse and ~25 ms more to turn into objects; here the columns every question
 * needs (numbers, status, role, priority, epic, mission, claimant, dependencies: ~1.6 MB) are one
 * buffer, and each row (`TaskRow`, task-row.ts) decodes a field when it is asked for. Titles,
 * timestamps and acceptance criteria (the text file) and blob ids (the oids file) are read block
 * by block, only when asked for: a report reads neither, a page of 50 reads one block of titles.
 * Labels are a column (`list --label` reads no text). Local and disposable, so native byte order
 * is fine (a file of another order is simply not loaded).
 *
 * Columns file: "PTT4", header length (u32), header JSON (commit, shards, problems, names,
 * labels, section offsets, sizes of the other two files), then 8-aligned sections:
 * creation-time keys (createdKey, Float64), numbers,
 * status/role/priority codes, epic, mission, claimant and completer (indexes into `names`,
 * 0 = none), dependency, former-number and label lists (offsets + values; a label is its index
 * in `labels`). Text file: byte offsets (u32, 4N + 1: every title's, then every created time's,
 * every updated time's, every acceptance list's) then the UTF-8 text in the same order (a task's
 * acceptance criteria as JSON, empty for none). Oids file: 20 bytes a row.
 *
 * Written by task-table-encoder.ts, read by task-table.ts.
 */
export const MAGIC = "PTT4";
/** The text fields, in file order (TaskTable.text's k). */
export const TEXT_FIELDS = 4;
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// Codes are positions in the domain's lists (what TaskColumns hands on); the header records the
// lists, so a table written under other lists is not loaded.
export const CODES = { status: TASK_STATUSES, role: TASK_ROLES, priority: PRIORITIES };

export type Section = "c" | "n" | "s" | "r" | "p" | "e" | "m" | "cl" | "cb" | "do" | "dv" | "fo" | "fv" | "lo" | "lv";

export interface TableMeta {
  commit: string;
  shards: Record<string, string>;
  bad: Record<string, [string, string]>;
  stray: string[];
  /** What the journal gave since a read from git (summary-cache.ts); absent in tables written before. */
  unverified?: { shards: string[]; rows: number[] };
  /** A random id of the save that wrote it, which its seal names (cache-files.ts). */
  save?: string;
}

export interface TableHeader extends TableMeta {
  le: boolean;
  codes: typeof CODES;
  count: number;
  names: string[];
  /** Every label of the table, in first-seen order; label columns hold indexes into it. */
  labels: string[];
  sections: Record<Section, [number, number]>;
  textBytes: number;
  oidBytes: number;
  /** Per text field: every value is ASCII, so byte offsets are string offsets. */
  ascii: boolean[];
  /** Every createdAt has a createdKey (is in the canonical form). */
  createdKeys: boolean;
}

/** Sections start at multiples of 8: Float64 values need 8-aligned offsets. */
export const align = (x: number) => (x + 7) & ~7;

/** The header of a columns file: what the other two files must hold. */
export function tableHeader(file: Buffer): TableHeader | null {
  try {
    if (file.toString("latin1", 0, 4) !== MAGIC) return null;
    const header = JSON.parse(file.toString("utf8", 8, 8 + file.readUInt32LE(4))) as TableHeader;
    return header.le === LITTLE_ENDIAN && JSON.stringify(header.codes) === JSON.stringify(CODES) ? header : null;
  } catch {
    return null;
  }
}
