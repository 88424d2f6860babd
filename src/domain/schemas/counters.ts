import * as z from "zod/mini";
import type { Known } from "./common.js";

const Count = z.int().check(z.nonnegative());

/** Highest number allocated per kind; allocation reads only this file, never the whole tree. */
export const CountersSchema = z.looseObject({ tasks: Count, epics: Count, missions: Count, reviews: Count });
export type Counters = Known<z.infer<typeof CountersSchema>>;
export type CounterKind = keyof Counters;

export { EMPTY_COUNTERS } from "../constants.js";
