import { CancelledError } from "../errors.js";
import type { RecoveryCandidate } from "../store/store.js";
import { escapeText } from "../render/escape.js";

/**
 * The person at a terminal picks the state `doctor --recover` restores (newest first, the newest
 * preselected), then confirms: a restore is never a guess. Null when they decline.
 */
export async function pickRecoveryCandidate(candidates: RecoveryCandidate[], healthy = false): Promise<string | null> {
  const { select, confirm } = await import("@inquirer/prompts");
  try {
    const commit = await select({
      message: healthy
        ? "Merge which state back into refs/coordination/main?"
        : "Restore refs/coordination/main to which state?",
      default: candidates[0]?.commit,
      choices: candidates.map((c) => ({
        value: c.commit,
        name: `${c.commit.slice(0, 12)}  ${c.date.slice(0, 19).replace("T", " ")}  ${escapeText(c.summary)}`,
      })),
    });
    const ok = await confirm({
      message: healthy
        ? `Merge the state of ${commit.slice(0, 12)} back (everything the ref holds stays)?`
        : `Restore the state of ${commit.slice(0, 12)} as a new commit?`,
      default: true,
    });
    return ok ? commit : null;
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") throw new CancelledError();
    throw e;
  }
}
