import { IDENTIFY_HINT } from "../domain/actor.js";
import { PantheonError } from "../errors.js";
import { translateHint } from "./hint-translation.js";

/**
 * What an unidentified caller is told here: the CLI's hint names `--mission` and `/summon`,
 * which a model talking to this server cannot pass; it can call mission_start or pass `mission`.
 */
export const MCP_IDENTIFY_HINT =
  "say who you are: call mission_start with your role (and persona) first, or pass mission (the id /summon gave you) on each call";

type ToolError = { isError: true; content: Array<{ type: "text"; text: string }> };

/**
 * A failed call as a tool result, always with what to do: a refusal keeps the CLI's code and
 * message word for word, and its hint, in this server's terms where the CLI's would not work
 * here (a CLI line a tool does the same as becomes that tool's call, hint-translation.ts); an error Pantheon did not expect says it is a bug (the server's stderr has the stack).
 */
export function toolError(e: unknown, tool: string): ToolError {
  if (!(e instanceof PantheonError)) {
    const message = e instanceof Error ? e.message : String(e);
    return text(
      `E_INTERNAL: ${message}`,
      "this is a bug in pantheon, not in your call: the server's stderr has the details; report them",
    );
  }
  const hint =
    e.hint === IDENTIFY_HINT
      ? MCP_IDENTIFY_HINT
      : e.hint
        ? translateHint(e.hint)
        : `see ${tool}'s input schema (tools/list)`;
  return text(`${e.code}: ${e.message}`, hint);
}

function text(message: string, hint: string): ToolError {
  return { isError: true, content: [{ type: "text", text: `${message}\nhint: ${hint}` }] };
}
