import { UsageError } from "../errors.js";

export const PRIORITIES = ["CRITICAL", "HIGH", "MEDIUM", "LOW"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const PRIORITY_LETTERS: Record<Priority, string> = { CRITICAL: "C", HIGH: "H", MEDIUM: "M", LOW: "L" };

/** Lower rank sorts first: CRITICAL before LOW. */
export function priorityRank(p: Priority): number {
  return PRIORITIES.indexOf(p);
}

export function priorityForLetter(letter: string): Priority | undefined {
  return PRIORITIES.find((p) => PRIORITY_LETTERS[p] === letter.toUpperCase());
}

/** Accepts the name or its letter, case-insensitively (`high`, `H`, `crit`). */
export function parsePriority(input: string, flag = "--priority"): Priority {
  const raw = input.trim().toUpperCase();
  const byLetter = raw.length === 1 ? priorityForLetter(raw) : undefined;
  if (byLetter) return byLetter;
  const matches = PRIORITIES.filter((p) => raw.length > 0 && p.startsWith(raw));
  if (matches.length === 1) return matches[0]!;
  throw new UsageError(
    `Unknown priority "${input}" for ${flag}`,
    `priorities: ${PRIORITIES.join(", ")} (or C, H, M, L)`,
  );
}
