import { UsageError } from "../errors.js";
import { ASSISTANT_NAMES, type AssistantAdapter, type AssistantName } from "./adapter.js";
import { claudeAdapter } from "./claude.js";
import { codexAdapter } from "./codex.js";
import { geminiAdapter } from "./gemini.js";
import { opencodeAdapter } from "./opencode.js";

/**
 * One adapter per name of ASSISTANT_NAMES, under its own name: a name added to the list without
 * an adapter here, an adapter here whose name is not on the list, or one filed under another
 * name is a compile error (the list itself is in domain/assistant-names.ts).
 */
export const ADAPTERS: { readonly [N in AssistantName]: AssistantAdapter<N> } = {
  claude: claudeAdapter,
  opencode: opencodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
};

/** In order of preference (the list's order): `summon` without a choice starts the first one installed. */
export const ASSISTANTS: readonly AssistantAdapter[] = ASSISTANT_NAMES.map((n) => ADAPTERS[n]);

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
