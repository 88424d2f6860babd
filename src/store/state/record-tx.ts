import { CorruptRecordError } from "../../errors.js";
import { MAX_NUMBER } from "../../domain/ids.js";
import type { Counters } from "../../domain/schemas/counters.js";
import type { Persona } from "../../domain/schemas/persona.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Task } from "../../domain/schemas/task.js";
import { TaskIndex, type TaskMap } from "../../domain/task-index.js";
import { toTaskSummary, type TaskSummary } from "../../domain/task-summary.js";
import { canonicalJson } from "./canonical-json.js";
import { COUNTERS_PATH, PROJECT_PATH, personaPath, recordPath, type RecordKind } from "./layout.js";
import type { RecordTypes, Schemas } from "./record-schemas.js";
import type { FormerOwner, Snapshot, Tx } from "../store.js";
import type { ScanResult } from "./record-snapshot.js";
import type { TreeEdits } from "../git/tree-edit.js";

interface Validator {
  safeParse(v: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> };
  };
}

/** Validates a record before it is written, so no command can store what a read would reject. */
export function encode(schema: Validator, value: unknown, path: string): Buffer {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error?.issues[0];
    // A bug, not user input: services validate input first. Name it like a corrupt record.
    throw new CorruptRecordError(
      path,
      null,
      `refusing to write an invalid record (${issue?.path.join(".")}: ${issue?.message})`,
    );
  }
  return Buffer.from(canonicalJson(value), "utf8");
}

/** Encodes a record of a kind for its path, validating it first. */
export function encodeRecord<K extends RecordKind>(schemas: Schemas, kind: K, record: RecordTypes[K]): Buffer {
  return encode(schemas[kind], record, recordPath(kind, record.number));
}

/**
 * Where a large mutation's record blobs go as they are put (a pack: git/pack-writer.ts), once
 * `after` of them are held: an import of 100,000 tasks then never holds every record's text.
 */
export interface Spill {
  after: number;
  sink: () => { write(bytes: Buffer): string };
}

/** The writes of one mutation layered over its snapshot. */
export class RecordTx implements Tx {
  readonly changes = new Map<string, Buffer | null>();
  /** Records whose blobs were written to the spill's sink already, by path: their blob ids. */
  readonly spilled = new Map<string, string>();
  private readonly records = new Map<string, unknown>();
  private countersCache: Counters | undefined;

  constructor(
    private readonly base: Snapshot,
    private readonly schemas: Schemas,
    private readonly spill?: Spill,
  ) {}

  /** What the commit writes: the changes held, and the blobs spilled already by their ids. */
  edits(): TreeEdits {
    if (this.spilled.size === 0) return this.changes;
    const edits: TreeEdits = new Map(this.changes);
    for (const [path, blob] of this.spilled) edits.set(path, { blob });
    return edits;
  }

  /** How many paths this mutation writes or removes. */
  get size(): number {
    return this.changes.size + this.spilled.size;
  }

  get commit(): string | null {
    return this.base.commit;
  }

  project(): Promise<Project> {
    const own = this.records.get(PROJECT_PATH) as Project | undefined;
    return own ? Promise.resolve(own) : this.base.project();
  }

  async counters(): Promise<Counters> {
    this.countersCache ??= await this.base.counters();
    return this.countersCache;
  }

  async get<K extends RecordKind>(kind: K, n: number): Promise<RecordTypes[K] | null> {
    const own = this.records.get(recordPath(kind, n));
    return own ? (own as RecordTypes[K]) : this.base.get(kind, n);
  }

  async all<K extends RecordKind>(kind: K): Promise<RecordTypes[K][]> {
    const byNumber = new Map((await this.base.all(kind)).map((r) => [r.number, r]));
    for (const [path, rec] of this.records) {
      if (path.startsWith(`${kind}/`)) byNumber.set((rec as RecordTypes[K]).number, rec as RecordTypes[K]);
    }
    return [...byNumber.values()].sort((a, b) => a.number - b.number);
  }

  async persona(name: string): Promise<Persona | null> {
    return (this.records.get(personaPath(name)) as Persona | undefined) ?? this.base.persona(name);
  }

  async personas(): Promise<Persona[]> {
    const byPath = new Map((await this.base.personas()).map((p) => [personaPath(p.name), p]));
    for (const [path, rec] of this.records) if (path.startsWith("personas/")) byPath.set(path, rec as Persona);
    return [...byPath.values()];
  }

  async taskMap(): Promise<TaskMap> {
    return new TaskIndex(await this.taskSummaries());
  }

  async taskSummaries(): Promise<TaskSummary[]> {
    const byNumber = new Map((await this.base.taskSummaries()).map((t) => [t.number, t]));
    for (const [path, rec] of this.records)
      if (path.startsWith("tasks/")) byNumber.set((rec as Task).number, toTaskSummary(rec as Task));
    return [...byNumber.values()].sort((a, b) => a.number - b.number);
  }

  scan<K extends RecordKind>(kind: K): Promise<ScanResult<RecordTypes[K]>> {
    return this.base.scan(kind);
  }

  formerOwners<K extends RecordKind>(kind: K, n: number): Promise<FormerOwner<RecordTypes[K]>[]> {
    return this.base.formerOwners(kind, n);
  }

  rootEntries(): Promise<string[]> {
    return this.base.rootEntries();
  }

  removePath(path: string): void {
    this.changes.set(path, null);
    this.spilled.delete(path);
    this.records.delete(path);
  }

  putCounters(counters: Counters): void {
    this.countersCache = counters;
    this.changes.set(COUNTERS_PATH, encode(this.schemas.counters, counters, COUNTERS_PATH));
  }

  put<K extends RecordKind>(kind: K, record: RecordTypes[K]): void {
    const path = recordPath(kind, record.number);
    const bytes = encode(this.schemas[kind], record, path);
    this.records.set(path, record);
    if (this.spill && this.changes.size >= this.spill.after && !this.changes.has(path)) {
      this.spilled.set(path, this.spill.sink().write(bytes));
      return;
    }
    this.spilled.delete(path);
    this.changes.set(path, bytes);
  }

  putPersona(persona: Persona): void {
    const path = personaPath(persona.name);
    this.changes.set(path, encode(this.schemas.persona, persona, path));
    this.records.set(path, persona);
  }

  putProject(project: Project): void {
    this.changes.set(PROJECT_PATH, encode(this.schemas.project, project, PROJECT_PATH));
    this.records.set(PROJECT_PATH, project);
  }

  async allocate(kind: RecordKind): Promise<number> {
    const counters = { ...(await this.counters()) };
    counters[kind] += 1;
    // counters.json is the allocator; a number already on the tree (a hand-edited or damaged
    // counter) is skipped rather than overwritten, because numbers are never reused.
    while ((await this.base.get(kind, counters[kind]).catch(() => true)) !== null) counters[kind] += 1;
    // A counter pushed past what an id can name (crafted, or hand-edited) would give a record no
    // command can address, and past 10 digits one the layout ignores: refuse before writing.
    if (counters[kind] > MAX_NUMBER) {
      throw new CorruptRecordError(
        COUNTERS_PATH,
        this.commit,
        `the next ${kind} number would be ${counters[kind]}, past ${MAX_NUMBER}, the largest an id can name`,
      );
    }
    this.countersCache = counters;
    this.changes.set(COUNTERS_PATH, encode(this.schemas.counters, counters, COUNTERS_PATH));
    return counters[kind];
  }
}
