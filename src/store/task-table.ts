import type { TaskSummary } from "../domain/schemas/task.js";
import { toTaskSummary } from "../domain/task-summary.js";

/**
 * The tasks' read cache as one binary file of typed columns. At 50,000 tasks a JSON cache took
 * ~16 ms to parse and ~25 ms more to turn into objects; this one is read as a single buffer and
 * its rows are views (`TaskRow`) that decode a field when it is asked for: a report reads no
 * title, a page of 50 decodes 50. Local and disposable, so native byte order is fine (a file
 * of another order is simply not loaded).
 *
 * Layout: "PTT1", header length (u32), header JSON (commit, shards, problems, names, section
 * offsets), then 8-aligned sections: numbers, status/role/priority codes, epic, mission,
 * claimant and completer (indexes into `names`, 0 = none), dependency and former-number lists
 * (offsets + values), string offsets (title, created, updated; UTF-16 units) into one text,
 * the text (UTF-8) and the blob ids (20 bytes a row).
 */
const MAGIC = "PTT1";
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const STATUSES = ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "ABORTED"] as const;
const ROLES = ["architect", "engineer", "tester", "documentarian", "inspector", "operator"] as const;
const PRIORITIES = ["CRITICAL", "HIGH", "MEDIUM", "LOW"] as const;
const code = <T extends string>(list: readonly T[]) => new Map<string, number>(list.map((v, i) => [v, i]));
const STATUS_CODE = code(STATUSES);
const ROLE_CODE = code(ROLES);
const PRIORITY_CODE = code(PRIORITIES);

type Section = "n" | "s" | "r" | "p" | "e" | "m" | "cl" | "cb" | "do" | "dv" | "fo" | "fv" | "so" | "text" | "oid";

export interface TableMeta {
  commit: string;
  shards: Record<string, string>;
  bad: Record<string, [string, string]>;
  stray: string[];
}

interface Header extends TableMeta {
  le: boolean;
  count: number;
  names: string[];
  sections: Record<Section, [number, number]>;
}

/** Encodes rows (in number order) with the cache's bookkeeping. */
export function encodeTaskTable(rows: ReadonlyArray<{ summary: TaskSummary; oid: string }>, meta: TableMeta): Buffer {
  const N = rows.length;
  const names = new Map<string, number>();
  const name = (s: string | null) => (s === null ? 0 : (names.get(s) ?? names.set(s, names.size + 1).get(s)!));
  const n = new Uint32Array(N);
  const [s, r, p] = [new Uint8Array(N), new Uint8Array(N), new Uint8Array(N)];
  const [e, m, cl, cb] = [new Uint32Array(N), new Uint32Array(N), new Uint32Array(N), new Uint32Array(N)];
  const dOff = new Uint32Array(N + 1);
  const fOff = new Uint32Array(N + 1);
  const deps: number[] = [];
  const former: number[] = [];
  const so = new Uint32Array(3 * N + 1);
  const texts: string[] = [];
  const oid = Buffer.alloc(20 * N);
  let at = 0;
  rows.forEach(({ summary: t, oid: id }, i) => {
    // Columns hold what the schema allows today; anything else (a newer writer) means no cache.
    if (![t.number, t.epic ?? 0, t.mission ?? 0, ...t.dependencies, ...t.formerNumbers].every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff)) throw new Error(`task ${t.number}: a number out of range`);
    n[i] = t.number;
    s[i] = known(STATUS_CODE, t.status);
    r[i] = known(ROLE_CODE, t.role);
    p[i] = known(PRIORITY_CODE, t.priority);
    e[i] = t.epic ?? 0;
    m[i] = t.mission ?? 0;
    cl[i] = name(t.claimedBy);
    cb[i] = name(t.completedBy);
    dOff[i] = deps.length;
    deps.push(...t.dependencies);
    fOff[i] = former.length;
    former.push(...t.formerNumbers);
    for (const [k, text] of [t.title, t.createdAt, t.updatedAt].entries()) {
      so[3 * i + k] = at;
      texts.push(text);
      at += text.length;
    }
    oid.write(id, 20 * i, "hex");
  });
  dOff[N] = deps.length;
  fOff[N] = former.length;
  so[3 * N] = at;
  const parts: Record<Section, Uint8Array> = {
    n: bytes(n), s, r, p, e: bytes(e), m: bytes(m), cl: bytes(cl), cb: bytes(cb),
    do: bytes(dOff), dv: bytes(Uint32Array.from(deps)), fo: bytes(fOff), fv: bytes(Uint32Array.from(former)),
    so: bytes(so), text: Buffer.from(texts.join(""), "utf8"), oid,
  };
  const sections = {} as Record<Section, [number, number]>;
  let offset = 0;
  for (const [k, b] of Object.entries(parts) as Array<[Section, Uint8Array]>) {
    sections[k] = [offset, b.length];
    offset = align(offset + b.length);
  }
  const header: Header = { ...meta, le: LITTLE_ENDIAN, count: N, names: [...names.keys()], sections };
  const head = Buffer.from(`${MAGIC}0000${JSON.stringify(header)}`, "utf8");
  head.writeUInt32LE(head.length - 8, 4);
  const start = align(head.length);
  const out = Buffer.alloc(start + offset);
  head.copy(out);
  for (const [k, b] of Object.entries(parts) as Array<[Section, Uint8Array]>) out.set(b, start + sections[k][0]);
  return out;
}

function known(codes: Map<string, number>, v: string): number {
  const c = codes.get(v);
  if (c === undefined) throw new Error(`unknown value ${JSON.stringify(v)}`);
  return c;
}

const align = (x: number) => (x + 7) & ~7;
const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A decoded table; null for anything that is not one (another version, another byte order, damage). */
export function decodeTaskTable(file: Buffer): TaskTable | null {
  try {
    if (file.toString("latin1", 0, 4) !== MAGIC) return null;
    const len = file.readUInt32LE(4);
    const header = JSON.parse(file.toString("utf8", 8, 8 + len)) as Header;
    if (header.le !== LITTLE_ENDIAN) return null;
    // Typed arrays need aligned offsets: a buffer from readFileSync normally is; copy if not.
    let buf = file;
    if (file.byteOffset % 8 !== 0) {
      buf = Buffer.alloc(file.length); // never pooled: offset 0
      file.copy(buf);
    }
    return new TaskTable(header, buf, align(8 + len));
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
  readonly so: Uint32Array;
  readonly names: string[];
  private readonly textBytes: Buffer;
  private readonly oids: Buffer;
  private decoded: string | undefined;

  constructor(h: Header, buf: Buffer, start: number) {
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
    this.meta = { commit: h.commit, shards: h.shards, bad: h.bad, stray: h.stray };
    this.names = h.names;
    [this.n, this.e, this.m, this.cl, this.cb] = [u32("n"), u32("e"), u32("m"), u32("cl"), u32("cb")];
    [this.s, this.r, this.p] = [u8("s"), u8("r"), u8("p")];
    [this.do, this.dv, this.fo, this.fv, this.so] = [u32("do"), u32("dv"), u32("fo"), u32("fv"), u32("so")];
    const shared = (k: Section) => Buffer.from(buf.buffer, ...view(k));
    this.textBytes = shared("text");
    this.oids = shared("oid");
    if ([this.n, this.s, this.r, this.p, this.e, this.m, this.cl, this.cb].some((a) => a.length !== N) || this.do.length !== N + 1 || this.so.length !== 3 * N + 1 || this.oids.length !== 20 * N) {
      throw new Error("inconsistent");
    }
  }

  /** The titles and timestamps, decoded once, on first use (a report never needs them). */
  text(i: number, k: 0 | 1 | 2): string {
    this.decoded ??= this.textBytes.toString("utf8");
    return this.decoded.slice(this.so[3 * i + k], this.so[3 * i + k + 1]);
  }

  oid(i: number): string {
    return this.oids.toString("hex", 20 * i, 20 * i + 20);
  }

  name(k: number): string | null {
    return k === 0 ? null : (this.names[k - 1] ?? null);
  }

  row(i: number): TaskRow {
    return new TaskRow(this, i);
  }
}

const list = (offsets: Uint32Array, values: Uint32Array, i: number): number[] => Array.from(values.subarray(offsets[i], offsets[i + 1]));

/**
 * One task of a table: a TaskSummary whose fields are read from the columns when asked for,
 * and a cache row (`oid`, `value`). JSON.stringify sees a plain summary (toJSON).
 */
export class TaskRow implements TaskSummary {
  constructor(
    private readonly t: TaskTable,
    private readonly i: number,
  ) {}
  get number() { return this.t.n[this.i]!; }
  get title() { return this.t.text(this.i, 0); }
  get status() { return STATUSES[this.t.s[this.i]!]!; }
  get role() { return ROLES[this.t.r[this.i]!]!; }
  get priority() { return PRIORITIES[this.t.p[this.i]!]!; }
  get dependencies() { return list(this.t.do, this.t.dv, this.i); }
  get epic() { return this.t.e[this.i] || null; }
  get claimedBy() { return this.t.name(this.t.cl[this.i]!); }
  get mission() { return this.t.m[this.i] || null; }
  get completedBy() { return this.t.name(this.t.cb[this.i]!); }
  get createdAt() { return this.t.text(this.i, 1); }
  get updatedAt() { return this.t.text(this.i, 2); }
  get formerNumbers() { return list(this.t.fo, this.t.fv, this.i); }
  get oid() { return this.t.oid(this.i); }
  get value(): TaskSummary { return this; }
  toJSON(): TaskSummary { return toTaskSummary(this); }
}
