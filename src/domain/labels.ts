import { ConflictError, UsageError } from "../errors.js";
import { printable } from "./ids.js";

/**
 * A label is a lowercase word (DESIGN §1.3): it reaches argv-free places only (filters, shell
 * completion, the web board), but a strict format keeps it one plain token everywhere: no
 * spaces, quotes, shell or markup characters, nothing a terminal interprets.
 */
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
/** At most this many labels on a task. */
export const MAX_LABELS = 20;

const LABEL_HINT = 'a label is a lowercase word of letters, digits and "-" (at most 32 characters): --label api';

/**
 * A label as written on a command line or in a file: case does not matter (`API` is `api`);
 * anything but a word is a usage error naming it.
 */
export function parseLabel(input: string): string {
  const label = input.trim().toLowerCase();
  if (!LABEL_PATTERN.test(label))
    throw new UsageError(`"${printable(input)}" is not a label`, LABEL_HINT, { label: input });
  return label;
}

/** Labels as written (repeated flags, comma-separated lists), parsed, without repeats, in order. */
export function parseLabels(inputs: readonly string[]): string[] {
  return [
    ...new Set(
      inputs
        .flatMap((s) => s.split(","))
        .filter((s) => s.trim() !== "")
        .map(parseLabel),
    ),
  ];
}

/** A task's labels are kept sorted, so equal sets are equal records (and equal blobs). */
export function labelSet(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())].sort();
}

/**
 * Refuses a set past MAX_LABELS: a usage error when the command line alone asks for too many
 * (`create` with 21 `--label`), a conflict when the task's own labels make it too many.
 */
export function checkLabelCount(labels: readonly string[], hint: string, o: { given: boolean }): void {
  if (labels.length <= MAX_LABELS) return;
  const message = `A task has at most ${MAX_LABELS} labels; this would make ${labels.length}`;
  throw o.given
    ? new UsageError(message, hint, { labels: labels.length })
    : new ConflictError(message, hint, { labels: labels.length });
}
