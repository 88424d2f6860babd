import type { Criterion } from "../../domain/schemas/criterion.js";
import type { BlockFile } from "./block-file.js";
import { align, tableHeader, TEXT_FIELDS, type Section, type TableHeader, type TableMeta } from "./table-header.js";
import { TaskRow } from "./task-row.js";

/** Text fields read one by one before the whole text file is read instead. */
const WHOLE_AFTER = 256;

/**
 * A decoded table (the format: table-header.ts), its text and oids read through `files` when
 * first asked for; null for anything that is not a table (another version, another byte order, damage).
 */
export function decodeTaskTable(
  file: Buffer,
  files: (h: TableHeader) => { text: BlockFile; oids: BlockFile },
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

/** A table's columns as typed arrays over the columns file, its text and oids read block by block. */
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
    h: TableHeader,
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
  deps(i: number): number[] {
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

  /** Row i's former numbers, decoded now (the shared empty list when it has none). */
  formerNumbers(i: number): number[] {
    return list(this.fo, this.fv, i);
  }
}

// Frozen: the one empty list every row without dependencies (or former numbers) shares.
const NONE: readonly number[] = Object.freeze([]);

function list(offsets: Uint32Array, values: Uint32Array, i: number): number[] {
  const from = offsets[i]!;
  if (offsets[i + 1] === from) return NONE as number[];
  const out = new Array<number>(offsets[i + 1]! - from);
  for (let k = 0; k < out.length; k++) out[k] = values[from + k]!;
  return out;
}
