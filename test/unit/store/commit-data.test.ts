import { describe, expect, it } from "vitest";
import { parseTrailers, withoutCrud } from "../../../src/store/git/commit-data.js";

const commit = {
  message: "task ENG-H-0007 claim by Hephaestus\n\nPantheon-Op: task.claim\nPantheon-Actor: Hephaestus\n",
};

describe("withoutCrud", () => {
  it("trims git's crud at both ends and drops the delimiters anywhere, as git writes an identity", () => {
    expect(withoutCrud(" <Eve>\nEvil. ")).toBe("EveEvil");
    expect(withoutCrud("<e@x>")).toBe("e@x");
    expect(withoutCrud("  J. R. R. Tolkien. ")).toBe("J. R. R. Tolkien");
  });
});

describe("parseTrailers", () => {
  it("reads the last paragraph's trailers, repeated keys and folded values", () => {
    expect(parseTrailers(commit.message)).toEqual({ "Pantheon-Op": ["task.claim"], "Pantheon-Actor": ["Hephaestus"] });
    expect(parseTrailers("s\n\nbody\n\nA: 1\nA: 2\nB : long\n  folded\n\n")).toEqual({
      A: ["1", "2"],
      B: ["long folded"],
    });
  });

  it("ignores a title-only message, a prose paragraph and anything after a --- line", () => {
    expect(parseTrailers("Key: value\n")).toEqual({});
    expect(parseTrailers("s\n\nNote: this is prose\nthat goes on\n")).toEqual({});
    expect(parseTrailers("s\n\nA: 1\n---\nB: 2\n")).toEqual({ A: ["1"] });
    expect(parseTrailers("")).toEqual({});
  });

  it("accepts a mixed block with a git-generated line, as git does", () => {
    expect(parseTrailers("s\n\n(cherry picked from commit abc)\nSigned-off-by: A <a@x>\n")).toEqual({
      "Signed-off-by": ["A <a@x>"],
    });
  });
});
