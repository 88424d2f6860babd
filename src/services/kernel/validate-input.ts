import { UsageError } from "../../errors.js";
import { MAX_TEXT, MAX_TITLE } from "../../domain/constants.js";
import { checkCriteriaCount, MAX_CRITERIA, parseCriterionText } from "../../domain/acceptance.js";
import { checkLabelCount, labelSet, MAX_LABELS, parseLabels } from "../../domain/labels.js";

/** A title is any text that is not blank and at most MAX_TITLE characters; it is stored exactly. */
export function checkTitle(title: string | undefined, flag = "--title"): string {
  if (title === undefined)
    throw new UsageError(`${flag} is required`, `pantheon task create --title "Add login" --role engineer`);
  if (title.trim().length === 0)
    throw new UsageError(`${flag} must not be blank`, `give it some words: ${flag} "Add login"`);
  if ([...title].length > MAX_TITLE || title.length > MAX_TITLE) {
    throw new UsageError(
      `${flag} is ${title.length} characters; the limit is ${MAX_TITLE}`,
      "put the detail in --description",
    );
  }
  return title;
}

export function checkText(text: string | undefined, flag: string): string {
  if (text === undefined) return "";
  if (text.length > MAX_TEXT)
    throw new UsageError(
      `${flag} is ${text.length} characters; the limit is ${MAX_TEXT}`,
      "shorten it, or keep the long text in a file in the repository and link it",
    );
  return text;
}

/** For commands whose table row needs a note (handoff, unassign, reopen, abort). */
export function requireNotes(notes: string | undefined, command: string): string {
  if (notes === undefined || notes.trim() === "") {
    throw new UsageError(
      `${command} needs --notes saying why`,
      `${command} --notes "what the next person should know"`,
    );
  }
  return checkText(notes, "--notes");
}

/** Labels given to a new task (`--label`, an import entry): parsed, at most MAX_LABELS, sorted. */
export function checkLabels(written: readonly string[], flag: string): string[] {
  const labels = labelSet(parseLabels(written));
  checkLabelCount(labels, `give at most ${MAX_LABELS}: ${flag} api ${flag} db`, { given: true });
  return labels;
}

/** Criteria given to a new task (`--ac`, an import entry): each one line, at most MAX_CRITERIA. */
export function checkCriteria(written: readonly string[], flag: string): string[] {
  const texts = written.map((t) => parseCriterionText(t, `${flag} "returns 404 for unknown ids" (one line each)`));
  checkCriteriaCount(texts.length, `give at most ${MAX_CRITERIA} (put the rest in the description)`, { given: true });
  return texts;
}
