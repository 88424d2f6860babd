import { CorruptRecordError, SchemaVersionError, RepositoryError } from "../../errors.js";
import { SCHEMA_VERSION } from "../../domain/constants.js";
import type { Counters } from "../../domain/schemas/counters.js";
import type { Persona } from "../../domain/schemas/persona.js";
import type { Project } from "../../domain/schemas/project.js";
import { TaskIndex, type TaskMap } from "../../domain/task-index.js";
import { toTaskSummary, type TaskSummary } from "../../domain/task-summary.js";
import {
  COUNTERS_PATH,
  PERSONAS_DIR,
  PROJECT_PATH,
  parseRecordFile,
  personaPath,
  recordPath,
  type RecordKind,
} from "./layout.js";
import type { RecordTypes } from "./record-schemas.js";
import { loadSchemas } from "./schema-loader.js";
import type { FormerOwner, MovedTo, ScanProblem, ScanResult, Snapshot } from "../store.js";

/** A task with 200 notes of 2,000 characters is ~500 KB: 2 MB leaves room and still bounds a hostile blob. */
export const MAX_RECORD_BYTES = 2 * 1024 * 1024;

export type { ScanProblem, ScanResult } from "../store.js";

/** Where a snapshot's bytes come from: a git tree, or a map in unit tests. */
export interface TreeSource {
  read(path: string): Promise<Buffer | null>;
  /** Entry names of a directory; null when it does not exist. */
  list(dir: string): Promise<string[] | null>;
  /** Why a directory that exists could not be listed (too large), if so. */
  problem?(dir: string): Promise<string | undefined>;
}

interface Parser<T> {
  safeParse(
    v: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

/** A record refused by its size alone (never parsed, and when streamed, never read). */
export function recordTooLarge(path: string, commit: string | null, size: number): CorruptRecordError {
  return new CorruptRecordError(path, commit, `${size} bytes, over the ${MAX_RECORD_BYTES}-byte limit for a record`);
}

/** Parses and validates one record, or throws CorruptRecordError naming path and commit. */
export function decodeRecord<T>(schema: Parser<T>, bytes: Buffer, path: string, commit: string | null): T {
  // State can come from any collaborator's clone: a record far past any real one is refused
  // before parsing, so a crafted blob cannot exhaust memory or time.
  if (bytes.length > MAX_RECORD_BYTES) throw recordTooLarge(path, commit, bytes.length);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new CorruptRecordError(path, commit, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw new CorruptRecordError(path, commit, `${where}${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

export class RecordSnapshot implements Snapshot {
  private projectCache: Project | undefined;
  constructor(
    private readonly source: TreeSource,
    readonly commit: string | null,
    private readonly warn: (message: string) => void,
    /** Where records of a kind moved to from `n` (this clone's renumber log). */
    private readonly movedFrom: (kind: RecordKind, n: number) => MovedTo[] = () => [],
  ) {}

  /**
   * Refuses a state written by a newer Pantheon, without loading the schemas (cheap; every
   * command does it). Returns the state's schemaVersion (null when project.json has none): an
   * older one is read as it is, and migrated by the first write.
   */
  async checkVersion(): Promise<number | null> {
    const bytes = await this.source.read(PROJECT_PATH);
    if (!bytes)
      throw new RepositoryError("E_NOT_INITIALIZED", "refs/coordination/main has no project.json", "pantheon doctor");
    const version = peekSchemaVersion(bytes);
    if (version !== null && version > SCHEMA_VERSION) throw new SchemaVersionError(version, SCHEMA_VERSION);
    return version;
  }

  async project(): Promise<Project> {
    if (this.projectCache) return this.projectCache;
    const bytes = await this.source.read(PROJECT_PATH);
    if (!bytes)
      throw new RepositoryError("E_NOT_INITIALIZED", "refs/coordination/main has no project.json", "pantheon doctor");
    // Check the version before the schema: a newer layout may not parse, and must say "upgrade".
    const version = peekSchemaVersion(bytes);
    if (version !== null && version > SCHEMA_VERSION) throw new SchemaVersionError(version, SCHEMA_VERSION);
    this.projectCache = await this.decodeProject(bytes);
    return this.projectCache;
  }

  /** Validates project.json (a subclass may remember what it validated before). */
  protected async decodeProject(bytes: Buffer): Promise<Project> {
    return decodeRecord((await loadSchemas()).project, bytes, PROJECT_PATH, this.commit);
  }

  async counters(): Promise<Counters> {
    const bytes = await this.source.read(COUNTERS_PATH);
    if (!bytes) throw new CorruptRecordError(COUNTERS_PATH, this.commit, "missing");
    return decodeRecord((await loadSchemas()).counters, bytes, COUNTERS_PATH, this.commit);
  }

  async get<K extends RecordKind>(kind: K, n: number): Promise<RecordTypes[K] | null> {
    const path = recordPath(kind, n);
    const bytes = await this.source.read(path);
    if (!bytes) return null;
    const record = decodeRecord((await loadSchemas())[kind] as Parser<RecordTypes[K]>, bytes, path, this.commit);
    if (record.number !== n)
      throw new CorruptRecordError(path, this.commit, `number is ${record.number}, but the path says ${n}`);
    return record;
  }

  async all<K extends RecordKind>(kind: K): Promise<RecordTypes[K][]> {
    const { records, problems } = await this.scan(kind);
    for (const p of problems.slice(0, 20))
      this.warn(p.kind === "stray" ? `ignored stray entry ${p.path} at ${this.short()}` : `skipped ${p.message}`);
    if (problems.length > 20) this.warn(`... and ${problems.length - 20} more problems: pantheon doctor`);
    return records;
  }

  async taskSummaries(): Promise<TaskSummary[]> {
    return (await this.all("tasks")).map(toTaskSummary);
  }

  async taskMap(): Promise<TaskMap> {
    return new TaskIndex(await this.taskSummaries());
  }

  async scan<K extends RecordKind>(kind: K): Promise<ScanResult<RecordTypes[K]>> {
    const records: RecordTypes[K][] = [];
    const problems: ScanProblem[] = [];
    const shards = (await this.source.list(kind)) ?? [];
    const why = shards.length === 0 ? await this.source.problem?.(kind) : undefined;
    if (why) problems.push({ kind: "stray", path: kind, message: `${kind} ${why}` });
    for (const shard of shards) {
      const files = await this.source.list(`${kind}/${shard}`);
      if (files === null) {
        const why = (await this.source.problem?.(`${kind}/${shard}`)) ?? "is not a shard directory";
        problems.push({ kind: "stray", path: `${kind}/${shard}`, message: `${kind}/${shard} ${why}` });
        continue;
      }
      for (const file of files) {
        const n = parseRecordFile(shard, file);
        const path = `${kind}/${shard}/${file}`;
        if (n === null) {
          problems.push({
            kind: "stray",
            path,
            message: `${path} does not match the layout ${kind}/<NN>/<number>.json`,
          });
          continue;
        }
        try {
          const rec = await this.get(kind, n);
          if (rec) records.push(rec);
          else problems.push({ kind: "stray", path, message: `${path} is not a file` });
        } catch (e) {
          if (!(e instanceof CorruptRecordError)) throw e;
          problems.push({ kind: "corrupt", path, message: e.message });
        }
      }
    }
    return { records: records.sort((a, b) => a.number - b.number), problems };
  }

  async formerOwners<K extends RecordKind>(kind: K, n: number): Promise<FormerOwner<RecordTypes[K]>[]> {
    const out: FormerOwner<RecordTypes[K]>[] = [];
    for (const { to, id, own } of this.movedFrom(kind, n)) {
      const rec = await this.get(kind, to).catch(() => null);
      if (rec && rec.formerNumbers.includes(n)) out.push({ record: rec, formerId: id, ...(own && { own }) });
    }
    return out;
  }

  async rootEntries(): Promise<string[]> {
    return (await this.source.list("")) ?? [];
  }

  async persona(name: string): Promise<Persona | null> {
    const path = personaPath(name);
    const bytes = await this.source.read(path);
    return bytes ? decodeRecord((await loadSchemas()).persona, bytes, path, this.commit) : null;
  }

  async personas(): Promise<Persona[]> {
    const files = (await this.source.list(PERSONAS_DIR)) ?? [];
    const out: Persona[] = [];
    for (const file of files) {
      const path = `${PERSONAS_DIR}/${file}`;
      const bytes = await this.source.read(path);
      if (!bytes) continue;
      try {
        out.push(decodeRecord((await loadSchemas()).persona, bytes, path, this.commit));
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
        this.warn(`skipped ${e.message}`);
      }
    }
    return out;
  }

  private short(): string {
    return this.commit ? this.commit.slice(0, 12) : "the working state";
  }
}

function peekSchemaVersion(bytes: Buffer): number | null {
  try {
    const v = (JSON.parse(bytes.toString("utf8")) as { schemaVersion?: unknown }).schemaVersion;
    return typeof v === "number" ? v : null;
  } catch {
    return null;
  }
}
