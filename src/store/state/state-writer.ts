import type { ObjectDb } from "../git/object-db.js";
import type { CasResult, ReflogNote } from "../git/ref-cas.js";
import type { SharedPerm } from "../git/shared-perm.js";
import type { TreeEdits } from "../git/tree-edit.js";
import type { RepoPaths } from "../git/repo-paths.js";
import type { CommitInfo } from "../store.js";
import type { Schemas } from "./record-schemas.js";
import type { RecordSnapshot } from "./record-snapshot.js";
import type { StateMigration } from "./state-migration.js";

/**
 * What sync (sync/git-sync.ts) and doctor's care of the repository (repo/repository-care.ts)
 * need of the git store: its objects, snapshots at any commit, and writing commits and moving
 * the ref under its rules. GitStore implements it; naming it here keeps those rooms from
 * importing the store that assembles them.
 */
export interface StateWriter {
  readonly paths: RepoPaths;
  readonly db: ObjectDb;
  tip(): Promise<string | null>;
  snapshotAt(commit: string): Promise<RecordSnapshot>;
  /** Writes blobs, the changed trees and the commit; returns the commit id (the ref is not moved). */
  writeCommit(parents: string[], baseTree: string | null, changes: TreeEdits, info: CommitInfo): Promise<string>;
  /** Compare-and-swap of the state ref, with its reflog line. */
  moveRef(expected: string | null, next: string, message?: string): Promise<CasResult>;
  reflogNote(message: string): Promise<ReflogNote>;
  /** The migration commit over `parent` when its state is older than this version's schema. */
  migrationOver(parent: string, schemas: Schemas): Promise<(StateMigration & { commit: string }) | null>;
  checkWritable(): void;
  sharedPerm(): SharedPerm;
  /** Remembers the renumberings a merge of this command made (MovedTo.own): its own fetch, not an earlier sync. */
  noteOwnRenumbering(moves: ReadonlyArray<{ kind: string; from: number; to: number }>): void;
}
