import { SCHEMA_VERSION } from "../constants.js";
import type { MigrationStep, RawRecord } from "./migration-step.js";
import { V2_NO_WORKTREE_SETUP } from "./v2-no-worktree-setup.js";

export type { RawRecord } from "./migration-step.js";

/** Every step, in order; the last one's `to` is SCHEMA_VERSION. */
export const MIGRATION_STEPS: readonly MigrationStep[] = [V2_NO_WORKTREE_SETUP];

export interface Migration {
  from: number;
  to: number;
  project: RawRecord;
  /** What the person running it must hear once (already escaped for a terminal). */
  notices: string[];
}

/**
 * Brings `project.json` (parsed, not validated) from its schemaVersion to SCHEMA_VERSION, one
 * step per version; null when it is already there, newer, or has no usable version (a newer one
 * is refused by the version check, an unusable one is a corrupt record, not ours to rewrite).
 * Deterministic (updatedAt is left alone): two clones that migrate the same state write the
 * same blob, so their sync merges it without a conflict.
 */
export function migrateProject(project: RawRecord): Migration | null {
  const from = project.schemaVersion;
  if (typeof from !== "number" || !Number.isInteger(from) || from < 1 || from >= SCHEMA_VERSION) return null;
  let current = project;
  const notices: string[] = [];
  for (const step of MIGRATION_STEPS) {
    if (step.to <= from) continue;
    const r = step.migrate(current);
    current = { ...r.project, schemaVersion: step.to };
    notices.push(...r.notices);
  }
  return { from, to: SCHEMA_VERSION, project: current, notices };
}
