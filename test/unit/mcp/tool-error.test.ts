import { describe, expect, it } from "vitest";
import { IDENTIFY_HINT } from "../../../src/domain/actor.js";
import { InvalidTransitionError, NotFoundError } from "../../../src/errors.js";
import { MCP_IDENTIFY_HINT, toolError } from "../../../src/mcp/tool-error.js";

const textOf = (r: ReturnType<typeof toolError>) => r.content[0]!.text;

describe("toolError: every failed call says what to do", () => {
  it("keeps the CLI's code and message, and gives the identify hint in this server's terms", () => {
    const r = toolError(
      new InvalidTransitionError("Cannot close ENG-H-0001 as (unidentified persona): x", IDENTIFY_HINT),
      "close",
    );
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      `E_INVALID_TRANSITION: Cannot close ENG-H-0001 as (unidentified persona): x\nhint: ${MCP_IDENTIFY_HINT}`,
    );
    expect(MCP_IDENTIFY_HINT).toMatch(/mission_start/);
    expect(MCP_IDENTIFY_HINT).not.toMatch(/--mission|\/summon <role>/);
  });

  it("a refusal without a hint points at the tool's input; an unexpected error says it is a bug", () => {
    expect(textOf(toolError(new NotFoundError("No task 99"), "show"))).toBe(
      "E_NOT_FOUND: No task 99\nhint: see show's input schema (tools/list)",
    );
    expect(textOf(toolError(new TypeError("x is undefined"), "claim"))).toMatch(
      /^E_INTERNAL: x is undefined\nhint: this is a bug in pantheon, not in your call/,
    );
  });

  it("writes a CLI hint a tool does the same as as that tool's call", () => {
    const e = new InvalidTransitionError(
      "Cannot claim ENG-H-0002 as Hephaestus: it is blocked by 1 unfinished dependency",
      "pantheon task prereqs ENG-H-0002 (or --force)",
    );
    expect(textOf(toolError(e, "claim"))).toMatch(/\nhint: prereqs\(\{"id":"ENG-H-0002"\}\) \(or force: true\)$/);
  });
});
