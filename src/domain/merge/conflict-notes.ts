import { MAX_TEXT } from "../constants.js";
import type { Note } from "../schemas/note.js";
import { stableHash } from "./merge-fields.js";

/** A merged side's values in words for a note: `status UNDERWAY, claimedBy Hermes, mission MSN-0003`. */
export function describeValue(v: unknown, max = 500): string {
  if (v === null || typeof v !== "object") return String(v);
  const fields = Object.entries(v as Record<string, unknown>).filter(
    ([k]) => !["notes", "updatedAt", "createdAt", "uid"].includes(k),
  );
  const show = (k: string, x: unknown) =>
    x === null
      ? "none"
      : k === "mission" && typeof x === "number"
        ? `MSN-${String(x).padStart(4, "0")}`
        : typeof x === "object"
          ? JSON.stringify(x)
          : String(x);
  return fields
    .map(([k, x]) => `${k} ${show(k, x)}`)
    .join(", ")
    .slice(0, max);
}

/**
 * A note a merge adds to a record: its id is a hash of the record and the text, so the same
 * merge made again (by another clone, or a retried sync) adds the same note once.
 */
export function mergeNote(uid: string, at: string, kind: Note["kind"], text: string): Note {
  const clipped = text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
  return { id: `${kind}-${stableHash(`${uid}|${clipped}`)}`, at, by: "sync", kind, text: clipped };
}

/** The notes not there yet, appended (a merge made twice adds nothing twice). */
export function withNotes<T extends { notes: Note[] }>(record: T, notes: Note[]): T {
  const known = new Set(record.notes.map((n) => n.id));
  const fresh = notes.filter((n) => !known.has(n.id));
  return fresh.length === 0 ? record : { ...record, notes: [...record.notes, ...fresh] };
}

/** The later of two ISO-8601 timestamps (a merge's notes are dated by what it merged, never by a clock). */
export const later = (a: string, b: string) => (a > b ? a : b);
