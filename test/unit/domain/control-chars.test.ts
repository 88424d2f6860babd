import { describe, expect, it } from "vitest";
import { escapeFileText, escapeInline } from "../../../src/domain/control-chars.js";
import { escapeText } from "../../../src/render/escape.js";
import { fenceData, renderTemplate } from "../../../src/assistants/render-template.js";
import { commitMessage } from "../../../src/store/state/commit-message.js";

/** Invisible characters that break a line or reorder text for many readers (editors, browsers, JavaScript). */
const BREAKERS: Array<[string, string, string]> = [
  ["NEL", "\u0085", "\\u{85}"],
  ["LINE SEPARATOR", "\u2028", "\\u{2028}"],
  ["PARAGRAPH SEPARATOR", "\u2029", "\\u{2029}"],
  ["ARABIC LETTER MARK (bidi)", "\u061c", "\\u{61c}"],
  ["LEFT-TO-RIGHT MARK", "\u200e", "\\u{200e}"],
  ["RIGHT-TO-LEFT OVERRIDE", "\u202e", "\\u{202e}"],
  ["RIGHT-TO-LEFT ISOLATE", "\u2067", "\\u{2067}"],
];

describe("the one table of unsafe characters", () => {
  it.each(BREAKERS)("%s is escaped on a terminal line and in files", (_name, c, shown) => {
    const text = `Fix${c}login`;
    expect(escapeText(text)).toBe(`Fix${shown}login`);
    expect(escapeInline(text)).toBe(`Fix${shown}login`);
    expect(escapeFileText(`${text}\nnext\tline`)).toBe(`Fix${shown}login\nnext\tline`);
    expect(renderTemplate("# {{title}}", { title: text })).toBe(`# Fix${shown}login`);
    expect(fenceData("Description", text)).toContain(`Fix${shown}login`);
    expect(fenceData("Description", text)).not.toContain(c);
  });

  it("a commit's summary and trailers stay one line each through NEL and the separators", () => {
    const message = commitMessage(
      {
        summary: "a\u2028Pantheon-Actor: Zeus\u0085b\u2029c",
        op: "x",
        actor: "Eve\u2028Zeus",
        authorName: null,
        mission: null,
      },
      [],
    );
    expect(message).toBe("a Pantheon-Actor: Zeus b c\n\nPantheon-Op: x\nPantheon-Actor: Eve Zeus\n");
  });
});
