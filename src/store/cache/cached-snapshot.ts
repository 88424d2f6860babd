import { SchemaVersionError } from "../../errors.js";
import { SCHEMA_VERSION } from "../../domain/constants.js";
import type { TaskSummary } from "../../domain/task-summary.js";
import type { RecordKind } from "../state/layout.js";
import type { MovedTo } from "../store.js";
import { RecordSnapshot, type TreeSource } from "../state/record-snapshot.js";
import type { RecordTypes } from "../state/record-schemas.js";
import type { ProjectMemo } from "./cache-files.js";
import type { KindState, SummaryTypes } from "./summary-cache.js";
import { RowsTaskMap } from "./table-rows.js";
import type { TaskMap } from "../../domain/task-index.js";
import type { Project } from "../../domain/schemas/project.js";

const MAX_WARNINGS = 20;

/**
 * A snapshot of the tip whose list-type reads come from the read cache (DESIGN §2.5): missions,
 * epics and reviews, and task summaries, without reading a record. Single records still come by
 * path from git. Corrupt and stray entries are reported on every read, as without a cache.
 */
export class CachedSnapshot extends RecordSnapshot {
  constructor(
    source: TreeSource,
    commit: string,
    private readonly say: (message: string) => void,
    movedFrom: (kind: RecordKind, n: number) => MovedTo[],
    private readonly cache: <K extends RecordKind>(kind: K) => Promise<KindState<SummaryTypes[K]>>,
    /** Known without reading project.json when the cache head names this very commit. */
    private readonly knownVersion: number | null | undefined,
    private readonly projectMemo: ProjectMemo,
    /** project.json's blob id at this commit when known without git (the journal's line for it). */
    private readonly projectOid: () => string | undefined,
    private readonly hashBlob: (bytes: Buffer) => string,
  ) {
    super(source, commit, say, movedFrom);
  }

  private memoProject: Project | undefined;

  override async project(): Promise<Project> {
    if (this.memoProject) return this.memoProject;
    // A commit the journal describes names its project.json: the memo answers, no git read.
    const oid = this.projectOid();
    const known = oid === undefined ? null : this.projectMemo.load();
    if (known && known.oid === oid) return (this.memoProject ??= known.record);
    return super.project();
  }

  override async checkVersion(): Promise<number | null> {
    if (this.knownVersion === undefined) return super.checkVersion();
    if (this.knownVersion !== null && this.knownVersion > SCHEMA_VERSION)
      throw new SchemaVersionError(this.knownVersion, SCHEMA_VERSION);
    return this.knownVersion;
  }

  /**
   * project.json as validated before, when its bytes are the same (most commands never change
   * it): the dashboard and persona commands then load no schema library at all.
   */
  protected override async decodeProject(bytes: Buffer): Promise<Project> {
    const text = bytes.toString("utf8");
    const known = this.projectMemo.load();
    if (known?.text === text) {
      // A memo written before it kept the blob id learns it now.
      if (known.oid === undefined) this.projectMemo.save({ text, record: known.record, oid: this.hashBlob(bytes) });
      return known.record;
    }
    const record = await super.decodeProject(bytes);
    this.projectMemo.save({ text, record, oid: this.hashBlob(bytes) });
    return record;
  }

  override async all<K extends RecordKind>(kind: K): Promise<RecordTypes[K][]> {
    if (kind === "tasks") return super.all(kind); // full task records: only search and doctor need them
    return this.rows(await this.cache(kind)) as RecordTypes[K][];
  }

  override async taskSummaries(): Promise<TaskSummary[]> {
    return this.rows(await this.cache("tasks"));
  }

  override async taskMap(): Promise<TaskMap> {
    const k = await this.cache("tasks");
    this.warnProblems(k);
    return new RowsTaskMap(k.rows, () => this.ordered(k));
  }

  private rows<T>(k: KindState<T>): T[] {
    this.warnProblems(k);
    return this.ordered(k);
  }

  private warnProblems<T>(k: KindState<T>): void {
    // Capped: state from someone else's clone must not be able to flood the terminal.
    const notes = [
      ...k.stray.map((p) => `ignored stray entry ${p} at ${this.commit!.slice(0, 12)}`),
      ...[...k.bad.values()].map(([, m]) => `skipped ${m}`),
    ];
    for (const n of notes.slice(0, MAX_WARNINGS)) this.say(n);
    if (notes.length > MAX_WARNINGS) this.say(`... and ${notes.length - MAX_WARNINGS} more problems: pantheon doctor`);
  }

  private ordered<T>(k: KindState<T>): T[] {
    const fast = k.rows.ordered?.();
    if (fast) return fast;
    // Rows are stored in number order; only a refresh or the journal appends out of order.
    const values: T[] = new Array(k.rows.size);
    let i = 0;
    let last = 0;
    let sorted = true;
    for (const [n, r] of k.rows) {
      values[i++] = r.value;
      if (n < last) sorted = false;
      last = n;
    }
    if (sorted) return values;
    return [...k.rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r.value);
  }
}
