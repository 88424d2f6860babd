import { IDENTIFY_HINT } from "../domain/actor.js";
import type { PantheonError } from "../errors.js";

/**
 * What an unidentified caller is told here: the CLI's hint names `--mission` and `/summon`,
 * which a model talking to this server cannot pass; it can call mission_start or pass `mission`.
 */
export const MCP_IDENTIFY_HINT =
  "say who you are: call mission_start with your role (and persona) first, or pass mission (the id /summon gave you) on each call";

/**
 * A refusal as a tool result: the CLI's code and message, then what to do, in this server's
 * terms where the CLI's would not work here. The message stays the CLI's word for word.
 */
export function toolError(e: PantheonError): { isError: true; content: Array<{ type: "text"; text: string }> } {
  const hint = e.hint === IDENTIFY_HINT ? MCP_IDENTIFY_HINT : e.hint;
  return {
    isError: true,
    content: [{ type: "text", text: `${e.code}: ${e.message}${hint ? `\nhint: ${hint}` : ""}` }],
  };
}
