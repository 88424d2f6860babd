import { GitError, RepositoryError } from "../errors.js";
import { EMPTY_COUNTERS } from "../domain/constants.js";
import { factsOfEvents, type HistoryFacts } from "../domain/history-charts.js";
import { recordNumbers } from "../domain/record-keys.js";
import type { Project } from "../domain/schemas/project.js";
import { canonicalJson } from "./state/canonical-json.js";
import { COUNTERS_PATH, PROJECT_PATH, recordKey } from "./state/layout.js";
import { RecordSnapshot, type TreeSource } from "./state/record-snapshot.js";
import { formatRecordKeys, trailerNames } from "./state/records-trailer.js";
import { RecordTx } from "./state/record-tx.js";
import { stateMigration } from "./state/state-migration.js";
import { loadSchemas } from "./state/schema-loader.js";
import type { CommitEntry, HistoryStore } from "./port/history-store.js";
import type { CommitInfo, MutationResult, RecordStore, Snapshot, Tx } from "./port/record-store.js";
import type { NoticeStore } from "./port/sync-store.js";

class MapSource implements TreeSource {
  constructor(private readonly files: ReadonlyMap<string, Buffer>) {}
  async read(path: string): Promise<Buffer | null> {
    return this.files.get(path) ?? null;
  }
  async list(dir: string): Promise<string[] | null> {
    const prefix = `${dir}/`;
    const names = new Set<string>();
    for (const path of this.files.keys())
      if (path.startsWith(prefix)) names.add(path.slice(prefix.length).split("/")[0]!);
    if (names.size === 0) return null;
    return [...names].sort();
  }
}

function applyChanges(
  files: ReadonlyMap<string, Buffer>,
  changes: ReadonlyMap<string, Buffer | null>,
): Map<string, Buffer> {
  const out = new Map(files);
  for (const [path, bytes] of changes) {
    if (bytes) out.set(path, bytes);
    else out.delete(path);
  }
  return out;
}

/**
 * The records, their history and kept notices, kept in memory: for unit tests of services (no
 * git, same record codec). It has no remotes, no repository to care for and no code: a service
 * that needs those parts is tested over git, or its test adds the narrow part it needs.
 */
export class MemoryStore implements RecordStore, HistoryStore, NoticeStore {
  readonly root = null;
  readonly commonDir = "(memory)";
  readonly commits: Array<{ files: Map<string, Buffer>; info: CommitInfo; paths: string[] }> = [];
  warnings: string[] = [];

  readonly kept: Array<{ id: string; value: unknown }> = [];

  async keepNotice(value: unknown, tag: string): Promise<string> {
    const id = `${this.kept.length + 1}-${tag}`;
    this.kept.push({ id, value });
    return id;
  }

  async notices(): Promise<Array<{ id: string; value: unknown }>> {
    return [...this.kept];
  }

  async dropNotices(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const i = this.kept.findIndex((n) => n.id === id);
      if (i >= 0) this.kept.splice(i, 1);
    }
  }

  async tip(): Promise<string | null> {
    return this.commits.length > 0 ? String(this.commits.length) : null;
  }

  async exists(): Promise<boolean> {
    return this.commits.length > 0;
  }

  async log(o: { limit?: number; record?: string | readonly string[] }): Promise<CommitEntry[]> {
    const wanted = o.record === undefined ? null : typeof o.record === "string" ? [o.record] : o.record;
    const entries = this.commits.map(
      (c, i): CommitEntry => ({
        oid: String(i + 1),
        parents: i === 0 ? [] : [String(i)],
        author: c.info.authorName ?? c.info.actor,
        date: new Date(0).toISOString(),
        summary: c.info.summary,
        trailers: {
          "Pantheon-Op": [c.info.op],
          "Pantheon-Actor": [c.info.actor],
          "Pantheon-Records": [formatRecordKeys(c.paths.map(recordKey))],
        },
      }),
    );
    const matching = entries
      .reverse()
      .filter((e) => !wanted || wanted.some((r) => trailerNames(e.trailers["Pantheon-Records"]!, r)));
    return o.limit === undefined ? matching : matching.slice(0, o.limit);
  }

  async historyFacts(): Promise<HistoryFacts> {
    const events = (await this.log({})).reverse().map((e) => ({
      at: e.date,
      op: e.trailers["Pantheon-Op"]![0]!,
      tasks: recordNumbers(e.trailers["Pantheon-Records"]!, "tasks"),
    }));
    return factsOfEvents(events);
  }

  async snapshotAt(commit: string): Promise<Snapshot> {
    const c = this.commits[Number(commit) - 1];
    if (!c) throw new GitError("E_GIT_READ_OBJECT", `no commit ${commit}`);
    return new RecordSnapshot(new MapSource(c.files), commit, (w) => this.warnings.push(w));
  }

  async snapshot(): Promise<Snapshot> {
    const head = this.commits.at(-1);
    if (!head) throw new RepositoryError("E_NOT_INITIALIZED", "No Pantheon state", "pantheon init");
    return new RecordSnapshot(new MapSource(head.files), String(this.commits.length), (w) => this.warnings.push(w));
  }

  async mutate<R>(fn: (tx: Tx) => Promise<MutationResult<R>>): Promise<{ result: R; commit: string | null }> {
    const head = this.commits.at(-1);
    if (!head) throw new RepositoryError("E_NOT_INITIALIZED", "No Pantheon state", "pantheon init");
    const schemas = await loadSchemas();
    // As GitStore: an older state is migrated by its own commit, kept only if the command writes.
    const migration = stateMigration(head.files.get(PROJECT_PATH) ?? null, String(this.commits.length), schemas);
    const migrated = migration ? applyChanges(head.files, migration.changes) : head.files;
    const snap = new RecordSnapshot(new MapSource(migrated), String(this.commits.length), (w) => this.warnings.push(w));
    await snap.checkVersion();
    const tx = new RecordTx(snap, schemas);
    const { result, commit } = await fn(tx);
    if (tx.changes.size === 0) return { result, commit: null };
    if (migration) {
      this.commits.push({ files: migrated, info: migration.info, paths: [...migration.changes.keys()] });
      this.warnings.push(...migration.notices);
    }
    this.commits.push({ files: applyChanges(migrated, tx.changes), info: commit, paths: [...tx.changes.keys()] });
    return { result, commit: String(this.commits.length) };
  }

  async initialize(project: Project, info: CommitInfo): Promise<string> {
    if (this.commits.length > 0) throw new GitError("E_GIT_REF_UPDATE", "already initialized");
    this.commits.push({
      files: new Map([
        [PROJECT_PATH, Buffer.from(canonicalJson(project))],
        [COUNTERS_PATH, Buffer.from(canonicalJson(EMPTY_COUNTERS))],
      ]),
      info,
      paths: [PROJECT_PATH, COUNTERS_PATH],
    });
    return "1";
  }
}
