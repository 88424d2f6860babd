import type { TaskSummary } from "../../domain/schemas/task.js";
import { createdKey } from "../../domain/task-columns.js";
import {
  align,
  CODES,
  LITTLE_ENDIAN,
  MAGIC,
  TEXT_FIELDS,
  type Section,
  type TableHeader,
  type TableMeta,
} from "./table-header.js";

const code = <T extends string>(list: readonly T[]) => new Map<string, number>(list.map((v, i) => [v, i]));
const STATUS_CODE = code(CODES.status);
const ROLE_CODE = code(CODES.role);
const PRIORITY_CODE = code(CODES.priority);

/** The three files of a task table (table-header.ts), as bytes to write. */
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
  const header: TableHeader = {
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

const NON_ASCII = /[^\x00-\x7f]/;
const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
