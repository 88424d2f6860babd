import { migrateProject, type RawRecord } from "../../domain/migrations/migrate-project.js";
import { canonicalJson } from "./canonical-json.js";
import { PROJECT_PATH } from "./layout.js";
import { decodeRecord, MAX_RECORD_BYTES } from "./record-snapshot.js";
import type { Schemas } from "./record-schemas.js";
import type { CommitInfo } from "../store.js";
import type { TreeChanges } from "../git/tree-edit.js";

export interface StateMigration {
  /** The files the migration commit changes (project.json only: DESIGN §1.3). */
  changes: TreeChanges;
  info: CommitInfo;
  /** Said once, when the commit lands (already escaped). */
  notices: string[];
}

/**
 * The migration commit's content for the state at `commit`, whose project.json is `bytes`; null
 * when that state is at this version's schema (or newer, which the version check refuses, or so
 * damaged it has no version: reported as corrupt where it is read, never rewritten here).
 * Stores write it as its own commit under the first write this version makes to an older state,
 * landing both with one compare-and-swap, so a command that fails leaves the ref as it was.
 */
export function stateMigration(bytes: Buffer | null, commit: string, schemas: Schemas): StateMigration | null {
  if (!bytes || bytes.length > MAX_RECORD_BYTES) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const m = migrateProject(raw as RawRecord);
  if (!m) return null;
  const text = Buffer.from(canonicalJson(m.project), "utf8");
  // The migrated record must be one this version would write; if not, say which record is at fault.
  decodeRecord(schemas.project, text, PROJECT_PATH, commit);
  return {
    changes: new Map([[PROJECT_PATH, text]]),
    info: {
      summary: `state migrated from schemaVersion ${m.from} to ${m.to}`,
      op: "migrate",
      actor: "pantheon",
      authorName: null,
      mission: null,
    },
    notices: m.notices,
  };
}
