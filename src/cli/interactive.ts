import { ASSISTANT_MARKERS } from "../assistants/assistant-env.js";
import { markerSet } from "../domain/actor.js";
import type { IO } from "./io.js";

/** Set in the shells of AI assistants (and CI): never prompt there, even with a terminal. */
export const AGENT_MARKERS = [...ASSISTANT_MARKERS, "CI"] as const;

/** A person at a terminal: stdin and stdout are terminals and no assistant or CI marker is set. */
export function isInteractive(io: IO): boolean {
  if (!io.stdinIsTTY || !io.stdout.isTTY) return false;
  return !markerSet(io.env, AGENT_MARKERS);
}
