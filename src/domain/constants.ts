/**
 * Constants the schemas are built from, in a module without zod: commands that only need a
 * limit or an enumeration (and reads answered by the cache) do not load the schema library.
 */
export const MAX_TITLE = 200;
export const MAX_TEXT = 20_000;

/** Persona names: letters and digits first, then letters, digits, spaces and . ' - (no control characters). */
export const PERSONA_NAME = /^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,39}$/u;

/**
 * The state layout this version writes, and the highest it reads (DESIGN §2.1). An older state
 * is read as it is and migrated by the first write (domain/migrations/). 2: project.json no
 * longer holds `worktree.setup`.
 */
export const SCHEMA_VERSION = 2;

export const PROJECT_TYPES = ["python", "typescript", "go", "rust", "other"] as const;
export const REVIEW_TYPES = ["code", "task_completion", "design", "general"] as const;
export const REVIEW_STATUSES = ["PENDING", "APPROVED", "REJECTED", "WITHDRAWN"] as const;
export const MISSION_STATUSES = ["ACTIVE", "ENDED"] as const;
export const NOTE_KINDS = ["note", "handoff", "reassign", "review", "conflict", "system"] as const;

export const EMPTY_COUNTERS = { tasks: 0, epics: 0, missions: 0, reviews: 0 } as const;
