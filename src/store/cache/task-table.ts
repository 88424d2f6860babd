import type { Criterion } from "../../domain/schemas/criterion.js";
import type { TaskSummary } from "../../domain/schemas/task.js";
import { PRIORITIES } from "../../domain/priority.js";
import { TASK_ROLES } from "../../domain/roles.js";
import { TASK_STATUSES } from "../../domain/task-status.js";
import { createdKey } from "../../domain/task-columns.js";
import { toTaskSummary } from "../../domain/task-summary.js";
import type { BlockFile } from "./block-file.js";

/**
 * The tasks' read cache as binary typed columns, in three files. At 50,000 tasks a JSON cache
 * took ~16 ms to parse and ~25 ms more to turn into objects; here the columns every question
 * needs (numbers, status, role, priority, epic, mission, claimant, dependencies: ~1.6 MB) are one
 * buffer, and each row (`TaskRow`) decodes a field when it is asked for. Titles, timestamps and
 * acceptance criteria (the text file) and blob ids (the oids file) are read block by block, only
 * when asked for: a report reads neither, a page of 50 reads one block of titles. Labels are
 * a column (`list --label` reads no text). Local and disposable, so native byte order is fine
 * (a file of another order is simply not loaded).
 *
 * Columns file: "PTT4", header length (u32), header JSON (commit, shards, problems, names,
 * labels, section offsets, sizes of the other two files), then 8-aligned sections:
 * creation-time keys (createdKey, Float64), numbers,
 * status/role/priority codes, epic, mission, claimant and completer (indexes into `names`,
 * 0 = none), dependency, former-number and label lists (offsets + values; a label is its index
 * in `labels`). Text file: byte offsets (u32, 4N + 1: every title's, then every created time's,
 * every updated time's, every acceptance list's) then the UTF-8 text in the same order (a task's
 * acceptance criteria as JSON, empty for none). Oids file: 20 bytes a row.
 */
const MAGIC = "PTT4";
/** The text fields, in file order (TaskTable.text's k). */
const TEXT_FIELDS = 4;
/** Text fields read one by one before the whole text file is read instead. */
const WHOLE_AFTER = 256;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// Codes are positions in the domain's lists (what TaskColumns hands on); the header records the
// lists, so a table written under other lists is not loaded.
const STATUSES = TASK_STATUSES;
const ROLES = TASK_ROLES;
const CODES = { status: STATUSES, role: ROLES, priority: PRIORITIES };
const code = <T extends string>(list: readonly T[]) => new Map<string, number>(list.map((v, i) => [v, i]));
const STATUS_CODE = code(STATUSES);
const ROLE_CODE = code(ROLES);
const PRIORITY_CODE = code(PRIORITIES);

type Section = "c" | "n" | "s" | "r" | "p" | "e" | "m" | "cl" | "cb" | "do" | "dv" | "fo" | "fv" | "lo" | "lv";

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

interface Header extends TableMeta {
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

export interface EncodedTable {
  columns: Buffer;
  text: Buffer;
  oids: Buffer;
}

/** Encodes rows (in number order) with the cache's bookkeeping. */
export function encodeTaskTable(
  rows: ReadonlyArray<{ summary: TaskSummary; oid: string }>,
  meta: TableMeta,
): EncodedTable {
  const N = rows.length;
  const names = new Map<string, number>();
  const name = (s: string | null) => (s === null ? 0 : (names.get(s) ?? names.set(s, names.size + 1).get(s)!));
  const labelNames = new Map<string, number>();
  const label = (s: string) => labelNames.get(s) ?? labelNames.set(s, labelNames.size).get(s)!;
  const n = new Uint32Array(N);
  const [s, r, p] = [new Uint8Array(N), new Uint8Array(N), new Uint8Array(N)];
  const [e, m, cl, cb] = [new Uint32Array(N), new Uint32Array(N), new Uint32Array(N), new Uint32Array(N)];
  const dOff = new Uint32Array(N + 1);
  const fOff = new Uint32Array(N + 1);
  const lOff = new Uint32Array(N + 1);
  const deps: number[] = [];
  const former: number[] = [];
  const labels: number[] = [];
  const so = new Uint32Array(TEXT_FIELDS * N + 1);
  const c = new Float64Array(N);
  const fits = (x: number) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
  // An import stamps every task alike: the last timestamp's key is reused.
  let lastCreated = "";
  let lastKey = Number.NaN;
  for (let i = 0; i < N; i++) {
    const t = rows[i]!.summary;
    // Columns hold what the schema allows today; anything else (a newer writer) means no cache.
    if (
      !fits(t.number) ||
      !fits(t.epic ?? 0) ||
      !fits(t.mission ?? 0) ||
      !t.dependencies.every(fits) ||
      !t.formerNumbers.every(fits)
    )
      throw new Error(`task ${t.number}: a number out of range`);
    if (t.createdAt !== lastCreated) [lastCreated, lastKey] = [t.createdAt, createdKey(t.createdAt)];
    c[i] = lastKey;
    n[i] = t.number;
    s[i] = known(STATUS_CODE, t.status);
    r[i] = known(ROLE_CODE, t.role);
    p[i] = known(PRIORITY_CODE, t.priority);
    e[i] = t.epic ?? 0;
    m[i] = t.mission ?? 0;
    cl[i] = name(t.claimedBy);
    cb[i] = name(t.completedBy);
    dOff[i] = deps.length;
    for (const d of t.dependencies) deps.push(d);
    fOff[i] = former.length;
    for (const f of t.formerNumbers) former.push(f);
    lOff[i] = labels.length;
    for (const l of t.labels) labels.push(label(l));
  }
  dOff[N] = deps.length;
  fOff[N] = former.length;
  lOff[N] = labels.length;
  // Whole columns per call into native code: a call per string (or per id) cost ~0.6 s at
  // 100,000 tasks. Ids are hex, so one string of all of them decodes in one go.
  const oid = Buffer.from(rows.map((row) => row.oid).join(""), "hex");
  if (oid.length !== 20 * N) throw new Error("a blob id that is not 40 hex digits");
  // Field by field (every title, then every created, then every updated time, then the
  // criteria): ordering by age reads the 1.2 MB of created times at 50,000 tasks, not all the text.
  const fields: Array<(t: TaskSummary) => string> = [
    (t) => t.title,
    (t) => t.createdAt,
    (t) => t.updatedAt,
    (t) => (t.acceptance.length === 0 ? "" : JSON.stringify(t.acceptance)),
  ];
  const values = fields.map((field) => rows.map((row) => field(row.summary)));
  const all = values.map((list) => list.join(""));
  const ascii = all.map((text) => !NON_ASCII.test(text));
  let at = 0;
  for (let k = 0; k < TEXT_FIELDS; k++)
    for (let i = 0; i < N; i++) {
      const str = values[k]![i]!;
      so[k * N + i] = at;
      at += ascii[k] ? str.length : Buffer.byteLength(str, "utf8");
    }
  so[TEXT_FIELDS * N] = at;
  const offsets = bytes(so);
  const text = Buffer.allocUnsafe(offsets.length + at);
  text.set(offsets, 0);
  let w = offsets.length;
  for (const part of all) w += text.write(part, w, "utf8");
  // First: Float64 values need 8-aligned offsets.
  const parts: Record<Section, Uint8Array> = {
    c: new Uint8Array(c.buffer),
    n: bytes(n),
    s,
    r,
    p,
    e: bytes(e),
    m: bytes(m),
    cl: bytes(cl),
    cb: bytes(cb),
    do: bytes(dOff),
    dv: bytes(Uint32Array.from(deps)),
    fo: bytes(fOff),
    fv: bytes(Uint32Array.from(former)),
    lo: bytes(lOff),
    lv: bytes(Uint32Array.from(labels)),
  };
  const sections = {} as Record<Section, [number, number]>;
  let offset = 0;
  for (const [k, b] of Object.entries(parts) as Array<[Section, Uint8Array]>) {
    sections[k] = [offset, b.length];
    offset = align(offset + b.length);
  }
  const header: Header = {
    ...meta,
    le: LITTLE_ENDIAN,
    codes: CODES,
    createdKeys: c.every((x) => !Number.isNaN(x)),
    count: N,
    names: [...names.keys()],
    labels: [...labelNames.keys()],
    sections,
    textBytes: text.length,
    oidBytes: oid.length,
    ascii,
  };
  const head = Buffer.from(`${MAGIC}0000${JSON.stringify(header)}`, "utf8");
  head.writeUInt32LE(head.length - 8, 4);
  const start = align(head.length);
  const columns = Buffer.alloc(start + offset);
  head.copy(columns);
  for (const [k, b] of Object.entries(parts) as Array<[Section, Uint8Array]>) columns.set(b, start + sections[k][0]);
  return { columns, text, oids: oid };
}

function known(codes: Map<string, number>, v: string): number {
  const c = codes.get(v);
  if (c === undefined) throw new Error(`unknown value ${JSON.stringify(v)}`);
  return c;
}

const align = (x: number) => (x + 7) & ~7;
const NON_ASCII = /[^\x00-\x7f]/;
const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The header of a columns file: what the other two files must hold. */
export function tableHeader(file: Buffer): Header | null {
  try {
    if (file.toString("latin1", 0, 4) !== MAGIC) return null;
    const header = JSON.parse(file.toString("utf8", 8, 8 + file.readUInt32LE(4))) as Header;
    return header.le === LITTLE_ENDIAN && JSON.stringify(header.codes) === JSON.stringify(CODES) ? header : null;
  } catch {
    return null;
  }
}

/**
 * A decoded table, its text and oids read through `files` when first asked for; null for
 * anything that is not a table (another version, another byte order, damage).
 */
export function decodeTaskTable(
  file: Buffer,
  files: (h: Header) => { text: BlockFile; oids: BlockFile },
): TaskTable | null {
  const header = tableHeader(file);
  if (!header) return null;
  try {
    // Typed arrays need aligned offsets: a buffer from readFileSync normally is; copy if not.
    let buf = file;
    if (file.byteOffset % 8 !== 0) {
      buf = Buffer.alloc(file.length); // never pooled: offset 0
      file.copy(buf);
    }
    const { text, oids } = files(header);
    return new TaskTable(header, buf, align(8 + file.readUInt32LE(4)), text, oids);
  } catch {
    return null;
  }
}

export class TaskTable {
  readonly count: number;
  readonly meta: TableMeta;
  readonly n: Uint32Array;
  readonly s: Uint8Array;
  readonly r: Uint8Array;
  readonly p: Uint8Array;
  readonly e: Uint32Array;
  readonly m: Uint32Array;
  readonly cl: Uint32Array;
  readonly cb: Uint32Array;
  readonly do: Uint32Array;
  readonly dv: Uint32Array;
  readonly fo: Uint32Array;
  readonly fv: Uint32Array;
  readonly lo: Uint32Array;
  readonly lv: Uint32Array;
  /** createdKey of every createdAt; null when some is not in the canonical form. */
  readonly created: Float64Array | null;
  readonly names: string[];
  readonly labelNames: string[];
  private readonly ascii: boolean[];

  constructor(
    h: Header,
    buf: Buffer,
    start: number,
    private readonly textFile: BlockFile,
    private readonly oidFile: BlockFile,
  ) {
    const view = (k: Section) => {
      const [off, len] = h.sections[k];
      if (start + off + len > buf.length) throw new Error("truncated");
      return [buf.byteOffset + start + off, len] as const;
    };
    const u32 = (k: Section) => {
      const [off, len] = view(k);
      return new Uint32Array(buf.buffer, off, len / 4);
    };
    const u8 = (k: Section) => {
      const [off, len] = view(k);
      return new Uint8Array(buf.buffer, off, len);
    };
    const N = h.count;
    this.count = N;
    this.meta = { commit: h.commit, shards: h.shards, bad: h.bad, stray: h.stray, unverified: h.unverified };
    this.names = h.names;
    this.labelNames = Array.isArray(h.labels) ? h.labels : [];
    this.ascii = Array.isArray(h.ascii) ? h.ascii.map((a) => a === true) : [];
    [this.n, this.e, this.m, this.cl, this.cb] = [u32("n"), u32("e"), u32("m"), u32("cl"), u32("cb")];
    [this.s, this.r, this.p] = [u8("s"), u8("r"), u8("p")];
    [this.do, this.dv, this.fo, this.fv] = [u32("do"), u32("dv"), u32("fo"), u32("fv")];
    [this.lo, this.lv] = [u32("lo"), u32("lv")];
    const [cOff, cLen] = view("c");
    if (cLen !== 8 * N || cOff % 8 !== 0) throw new Error("inconsistent");
    const created = new Float64Array(buf.buffer, cOff, N);
    this.created = h.createdKeys ? created : null;
    if (
      [this.n, this.s, this.r, this.p, this.e, this.m, this.cl, this.cb].some((a) => a.length !== N) ||
      this.do.length !== N + 1 ||
      this.fo.length !== N + 1 ||
      this.lo.length !== N + 1 ||
      this.lv.some((k) => k >= this.labelNames.length) ||
      h.oidBytes !== 20 * N ||
      h.textBytes < 4 * (TEXT_FIELDS * N + 1)
    ) {
      throw new Error("inconsistent");
    }
  }

  /** A title (k = 0), timestamp (1 created, 2 updated) or acceptance list (3, JSON), from the text file. */
  text(i: number, k: 0 | 1 | 2 | 3): string {
    // A question that reads many of one field (ordering thousands of ready tasks by age) is
    // better served by reading that field whole and slicing one string, which ASCII allows.
    let whole = this.whole[k];
    if (whole === undefined && ++this.textReads[k]! > WHOLE_AFTER)
      whole = this.whole[k] = this.ascii[k] ? this.readField(k) : null;
    const at = k * this.count + i;
    if (whole)
      return whole.text.slice(
        whole.offsets[at - k * this.count]! - whole.start,
        whole.offsets[at - k * this.count + 1]! - whole.start,
      );
    const base = 4 * (TEXT_FIELDS * this.count + 1);
    const from = this.textFile.u32(4 * at);
    const to = this.textFile.u32(4 * (at + 1));
    return this.textFile.bytes(base + from, to - from).toString("utf8");
  }

  private readonly textReads = [0, 0, 0, 0];
  private readonly whole: Array<{ offsets: Uint32Array; start: number; text: string } | null | undefined> = [
    undefined,
    undefined,
    undefined,
    undefined,
  ];

  private readField(k: number): { offsets: Uint32Array; start: number; text: string } {
    const N = this.count;
    const raw = this.textFile.bytes(4 * k * N, 4 * (N + 1));
    // BlockFile's buffer is never pooled and offsets are 4-aligned, so this view is a Uint32Array.
    const offsets = new Uint32Array(raw.buffer, raw.byteOffset, N + 1);
    const base = 4 * (TEXT_FIELDS * N + 1);
    const text = this.textFile.bytes(base + offsets[0]!, offsets[N]! - offsets[0]!).toString("latin1");
    return { offsets, start: offsets[0]!, text };
  }

  oid(i: number): string {
    return this.oidFile.bytes(20 * i, 20).toString("hex");
  }

  name(k: number): string | null {
    return k === 0 ? null : (this.names[k - 1] ?? null);
  }

  row(i: number): TaskRow {
    return new TaskRow(this, i);
  }

  /** Row i's dependencies, decoded now (one shared empty list when it has none: most have none). */
  deps(i: number): readonly number[] {
    return list(this.do, this.dv, i);
  }

  /** Row i's labels, by name. */
  labels(i: number): string[] {
    const from = this.lo[i]!;
    const to = this.lo[i + 1]!;
    if (to === from) return [];
    const out = new Array<string>(to - from);
    for (let k = 0; k < out.length; k++) out[k] = this.labelNames[this.lv[from + k]!]!;
    return out;
  }

  /** Row i's acceptance criteria (parsed from the JSON the table keeps; most tasks have none). */
  acceptance(i: number): Criterion[] {
    const json = this.text(i, 3);
    return json === "" ? [] : (JSON.parse(json) as Criterion[]);
  }
}

const NONE: readonly number[] = Object.freeze([]);

function list(offsets: Uint32Array, values: Uint32Array, i: number): number[] {
  const from = offsets[i]!;
  if (offsets[i + 1] === from) return NONE as number[];
  const out = new Array<number>(offsets[i + 1]! - from);
  for (let k = 0; k < out.length; k++) out[k] = values[from + k]!;
  return out;
}

/**
 * One task of a table: a TaskSummary whose fields are read from the columns when asked for,
 * and a cache row (`oid`, `value`). JSON.stringify sees a plain summary (toJSON).
 */
export class TaskRow implements TaskSummary {
  // Dependencies are walked again and again (blocking, readiness): decoded once per row.
  private deps: number[] | undefined;
  constructor(
    private readonly t: TaskTable,
    private readonly i: number,
  ) {}
  get number() {
    return this.t.n[this.i]!;
  }
  get title() {
    return this.t.text(this.i, 0);
  }
  get status() {
    return STATUSES[this.t.s[this.i]!]!;
  }
  get role() {
    return ROLES[this.t.r[this.i]!]!;
  }
  get priority() {
    return PRIORITIES[this.t.p[this.i]!]!;
  }
  get dependencies() {
    return (this.deps ??= list(this.t.do, this.t.dv, this.i));
  }
  get epic() {
    return this.t.e[this.i] || null;
  }
  get claimedBy() {
    return this.t.name(this.t.cl[this.i]!);
  }
  get mission() {
    return this.t.m[this.i] || null;
  }
  get completedBy() {
    return this.t.name(this.t.cb[this.i]!);
  }
  get createdAt() {
    return this.t.text(this.i, 1);
  }
  get updatedAt() {
    return this.t.text(this.i, 2);
  }
  get formerNumbers() {
    return list(this.t.fo, this.t.fv, this.i);
  }
  get labels() {
    return this.t.labels(this.i);
  }
  get acceptance() {
    return this.t.acceptance(this.i);
  }
  get oid() {
    return this.t.oid(this.i);
  }
  get value(): TaskSummary {
    return this;
  }
  toJSON(): TaskSummary {
    return toTaskSummary(this);
  }
}
