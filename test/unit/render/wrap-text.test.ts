import { describe, expect, it } from "vitest";
import { PLAIN } from "../../../src/render/paint.js";
import { wrapLine } from "../../../src/render/wrap-text.js";

const term = (width: number) => ({ paint: PLAIN, tty: true, width });

describe("wrapLine: prose at word boundaries, to the terminal's width", () => {
  it("breaks between words, never inside one, continuing under the text (or at the hang given)", () => {
    const line =
      "  pantheon sync                 share the state with teammates through your git remote (publish it once now)";
    const out = wrapLine(term(80), line, 32).split("\n");
    expect(out).toEqual([
      "  pantheon sync                 share the state with teammates through your git",
      "                                remote (publish it once now)",
    ]);
    expect(wrapLine(term(40), "Teammates: after your first pantheon sync, they git clone").split("\n")).toEqual([
      "Teammates: after your first pantheon",
      "sync, they git clone",
    ]);
  });

  it("keeps a word longer than the room whole, and colour codes take no width", () => {
    const path = "/tmp/a-very-long-path/that/does/not/fit/anywhere/at/all.toml";
    expect(wrapLine(term(30), `  see ${path} now`).split("\n")).toEqual(["  see", `  ${path}`, "  now"]);
    const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;
    expect(wrapLine(term(20), dim("kept twelve chars"))).toBe(dim("kept twelve chars"));
  });

  it("leaves piped output and lines that fit as they are", () => {
    const long = "word ".repeat(40).trim();
    expect(wrapLine({ paint: PLAIN, tty: false, width: 80 }, long)).toBe(long);
    expect(wrapLine(term(80), "short line")).toBe("short line");
  });
});
