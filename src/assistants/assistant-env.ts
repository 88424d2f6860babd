import type { AssistantName } from "./adapter.js";
import { ADAPTERS } from "./registry.js";
import { markerSet } from "../domain/actor.js";

/**
 * When the markers of two assistants are both set (one started from the other's shell, which
 * passes its variables on), the first of this order is taken: the order detection has always
 * used. Every name must be in it (the check below), so a new assistant is placed here.
 */
const DETECTION_ORDER = everyAssistant(["claude", "codex", "gemini", "opencode"]);

/** The list as given; a compile error that names the missing assistants when it leaves one out. */
function everyAssistant<const T extends readonly AssistantName[]>(
  list: T &
    ([Exclude<AssistantName, T[number]>] extends [never] ? unknown : { missing: Exclude<AssistantName, T[number]> }),
): T {
  return list;
}

/**
 * Variables the assistants set for the shell commands they run (DESIGN §5, ASSISTANTS.md), each
 * adapter's `shellMarkers`, plus AGENT, which opencode and other agents set: with one of them
 * set, nobody at a terminal typed the command.
 */
export const ASSISTANT_MARKERS: readonly string[] = [
  ...DETECTION_ORDER.flatMap((n) => ADAPTERS[n].shellMarkers),
  "AGENT",
];

/** Whether the command runs inside an AI assistant's tool shell. */
export function insideAssistant(env: Readonly<Record<string, string | undefined>>): boolean {
  return markerSet(env, ASSISTANT_MARKERS);
}

/**
 * Which assistant a `pantheon` command runs inside, from the variables each one sets for the
 * shells it runs (each adapter's `shellSession`), and its session id where it tells one:
 * `mission start` from `/summon` records both on the mission.
 */
export function assistantFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { assistant: AssistantName; sessionId: string | null } | null {
  for (const name of DETECTION_ORDER) {
    const found = ADAPTERS[name].shellSession(env);
    if (found) return { assistant: name, sessionId: found.sessionId };
  }
  return null;
}
