/**
 * The version of the read cache's files (DESIGN §2.5): part of every file name, so a version
 * change leaves the old files unread (and swept). Disposable and versioned.
 * 7: records decoded loosely (unknown fields kept) and the head holding the version found, not
 * ours; rows and memos of 6 lack a newer version's fields, and its head hides an older state.
 * 8: strict formats for fields that reach an assistant's argv, a path or a prompt (session ids,
 * worktrees, uids, timestamps); rows of 7 were validated without them and are never validated again.
 * 9: task rows carry labels (a column, so `list --label` reads no text) and acceptance criteria.
 */
export const CACHE_VERSION = 9;

/**
 * The shape of the cached rows (task summaries, epics, missions, reviews) each version was made
 * for, as a fingerprint of their schemas (their checks too, from 8 on): test/unit/store/cache-version.test.ts computes it and
 * fails when the shape changes without a new CACHE_VERSION recorded here.
 */
export const CACHE_ROW_SHAPES: Readonly<Record<number, string>> = {
  7: "a8e324b24367",
  8: "12bf641a768b",
  9: "c3e3dc510cbe",
};
