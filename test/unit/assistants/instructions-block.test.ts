import { describe, expect, it } from "vitest";
import {
  BLOCK_BEGIN,
  BLOCK_END,
  agentsMdImport,
  instructionsBlock,
  upsertBlock,
} from "../../../src/assistants/instructions-block.js";
import { ConflictError } from "../../../src/errors.js";

const BLOCK = instructionsBlock();
const OLD = `${BLOCK_BEGIN}\nold pantheon text\n${BLOCK_END}`;

describe("instructionsBlock", () => {
  it("is marked, short, and says what a persona needs", () => {
    expect(BLOCK.startsWith(`${BLOCK_BEGIN}\n`)).toBe(true);
    expect(BLOCK.endsWith(BLOCK_END)).toBe(true);
    expect(BLOCK.split("\n").length).toBeLessThanOrEqual(25);
    for (const s of ["refs/coordination/main", "/summon", "--mission", "pantheon --help"]) expect(BLOCK).toContain(s);
  });

  it("says when a persona syncs and what to do with a dropped claim (issue 14)", () => {
    expect(BLOCK).toContain("`pantheon sync`");
    expect(BLOCK).toMatch(/dropped[\s\S]*pick another task/);
    // One sentence a reader can parse (it read "A claim sync reports dropped was taken first elsewhere").
    expect(BLOCK.replace(/\s+/g, " ")).toContain(
      "When sync says your claim was dropped, another clone took that task first: stop, note your work",
    );
  });

  it("uses the cli name it is given", () => {
    expect(instructionsBlock({ cli: "npx pantheon" })).toContain("npx pantheon --help");
  });
});

describe("upsertBlock", () => {
  it("creates the file's content when there is none", () => {
    expect(upsertBlock(null, BLOCK)).toBe(`${BLOCK}\n`);
    expect(upsertBlock("", BLOCK)).toBe(`${BLOCK}\n`);
  });

  it.each([
    ["with a final newline", "# Agents\n\nBe kind.\n"],
    ["without a final newline", "# Agents\n\nBe kind."],
    ["ending in a blank line", "# Agents\n\n"],
  ])("appends after the user's text (%s), which stays a byte-identical prefix", (_c, user) => {
    const out = upsertBlock(user, BLOCK);
    expect(out.startsWith(user)).toBe(true);
    expect(out.endsWith(`\n\n${BLOCK}\n`)).toBe(true);
  });

  it("replaces an existing block and leaves the text around it byte-identical", () => {
    const before = "# Agents\r\nUser text with <!-- other --> markers\r\n\r\n";
    const after = "\r\n\r\n## More user text\r\n  trailing spaces  \r\n";
    expect(upsertBlock(before + OLD + after, BLOCK)).toBe(before + BLOCK + after);
  });

  it("replaces only the first block when the user has pasted a second one", () => {
    const text = `a\n${OLD}\nb\n${OLD}\nc\n`;
    expect(upsertBlock(text, BLOCK)).toBe(`a\n${BLOCK}\nb\n${OLD}\nc\n`);
  });

  it("is idempotent", () => {
    for (const start of [null, "# Agents\n", `x\n${OLD}\ny`]) {
      const once = upsertBlock(start, BLOCK);
      expect(upsertBlock(once, BLOCK)).toBe(once);
    }
  });

  it("wraps a block given without its markers", () => {
    expect(upsertBlock(null, "hello\n")).toBe(`${BLOCK_BEGIN}\nhello\n${BLOCK_END}\n`);
  });

  it("refuses a begin marker without an end marker rather than eat the user's text", () => {
    expect(() => upsertBlock(`mine\n${BLOCK_BEGIN}\nmore of mine\n`, BLOCK)).toThrow(ConflictError);
  });
});

describe("agentsMdImport", () => {
  it("imports AGENTS.md on a line of its own, with one sentence of explanation", () => {
    const text = agentsMdImport();
    expect(text.split("\n")).toContain("@AGENTS.md");
    expect(
      text
        .replace("@AGENTS.md", "")
        .trim()
        .split(/[.:]\s/).length,
    ).toBeLessThanOrEqual(2);
    expect(text.endsWith("\n")).toBe(true);
  });
});
