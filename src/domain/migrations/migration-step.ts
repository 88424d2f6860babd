/** A record as stored: JSON, before any schema (an older layout need not parse with today's). */
export type RawRecord = Record<string, unknown>;

/**
 * One version step of the state's schema (DESIGN §1.3, §2.1): a pure function of `project.json`
 * as stored, from version `to - 1` to `to`. It may only change `project.json`: a field added to a
 * record kind gets a default when decoded instead (a record without it is valid), so a migration
 * writes one file whether the state holds ten tasks or 50,000. It must be idempotent, and must
 * keep every field it does not name.
 */
export interface MigrationStep {
  to: number;
  /** Notices are said once, when the migration commit lands; escaped here (they quote state). */
  migrate(project: RawRecord): { project: RawRecord; notices: string[] };
}
