import * as z from "zod/mini";

/** A positive record number (tasks, epics, missions, reviews each have their own sequence). */
export const RecordNumber = z.int().check(z.positive());

/** ISO-8601 timestamp; the clock is injected, so records never read Date.now() themselves. */
export const Timestamp = z.string().check(z.minLength(10), z.maxLength(40));

/** Fields every record carries: `uid` is its identity across renumbering at sync. */
export const RecordBase = {
  uid: z.string().check(z.minLength(8), z.maxLength(64)),
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
