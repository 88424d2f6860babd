import * as z from "zod/mini";
import {
  ASSISTANT_WORD,
  COMMIT_ID,
  isAbsolutePath,
  isBranchName,
  RECORD_UID,
  SESSION_ID,
  THEME_NAME,
  TIMESTAMP,
} from "../record-formats.js";

/** A positive record number (tasks, epics, missions, reviews each have their own sequence). */
export const RecordNumber = z.int().check(z.positive());

/**
 * ISO-8601 timestamp; the clock is injected, so records never read Date.now() themselves. Strict:
 * a resume kickoff quotes one, and a pushed record may hold any text there.
 */
export const Timestamp = z.string().check(z.minLength(10), z.maxLength(40), z.regex(TIMESTAMP));

/**
 * The fields whose values leave Pantheon for a parser (record-formats.ts says where each goes):
 * checked on every read of the ref as on every write, so a record that fails them is corrupt.
 */
export const SessionId = z.string().check(z.regex(SESSION_ID));
export const AssistantWord = z.string().check(z.regex(ASSISTANT_WORD));
export const CommitId = z.string().check(z.regex(COMMIT_ID));
export const BranchName = z.string().check(z.refine(isBranchName, "not a branch name Pantheon makes"));
export const AbsolutePath = z
  .string()
  .check(z.refine(isAbsolutePath, "not an absolute path without control characters"));
export const ThemeName = z.string().check(z.regex(THEME_NAME));

type KnownKeys<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K];
};

/**
 * A record's type without the index signatures its loose schemas add, at every depth. Records
 * are decoded with `z.looseObject`, so fields a newer Pantheon wrote are carried through every
 * spread and write (DESIGN §1.3, forward compatibility), while code names only the fields it
 * knows and a misspelt one is still a type error. A map (`z.record`, no named keys) is kept.
 */
export type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? keyof KnownKeys<T> extends never
      ? T
      : { [K in keyof KnownKeys<T>]: Known<KnownKeys<T>[K]> }
    : T;

/** Fields every record carries: `uid` is its identity across renumbering at sync. */
export const RecordBase = {
  uid: z.string().check(z.regex(RECORD_UID)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: z.string().check(z.minLength(1), z.maxLength(80)),
};

import { MAX_TEXT, MAX_TITLE } from "../constants.js";

export { MAX_TEXT, MAX_TITLE };

/** Titles: any Unicode (control characters included, escaped at display), not blank. */
export const Title = z.string().check(
  z.maxLength(MAX_TITLE),
  z.refine((s) => s.trim().length > 0, "must not be blank"),
);
export const LongText = z.string().check(z.maxLength(MAX_TEXT));
