import { UsageError } from "../errors.js";
import { ASSISTANT_NAMES, type AssistantAdapter, type AssistantName } from "./adapter.js";
import { claudeAdapter } from "./claude.js";
import { codexAdapter } from "./codex.js";
import { geminiAdapter } from "./gemini.js";
import { opencodeAdapter } from "./opencode.js";

/** In order of preference: `summon` without a choice starts the first one installed. */
export const ASSISTANTS: readonly AssistantAdapter[] = [claudeAdapter, opencodeAdapter, codexAdapter, geminiAdapter];

export function isAssistantName(name: string): name is AssistantName {
  return (ASSISTANT_NAMES as readonly string[]).includes(name);
}

/** The adapter for `--assistant`, git config `pantheon.assistant` or the project's `assistant`. */
export function adapterFor(name: string): AssistantAdapter {
  const key = name.trim().toLowerCase();
  const found = ASSISTANTS.find((a) => a.name === key);
  if (!found) {
    throw new UsageError(`Unknown assistant "${name}"`, `assistants: ${ASSISTANT_NAMES.join(", ")}`, {
      assistant: name,
    });
  }
  return found;
}
