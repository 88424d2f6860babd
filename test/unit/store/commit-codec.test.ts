import { describe, expect, it } from "vitest";
import {
  encodeCommit,
  parseCommit,
  parseTrailers,
  withoutCrud,
  type CommitData,
} from "../../../src/store/git/commit-codec.js";

const T = "1".repeat(40);
const P1 = "2".repeat(40);
const P2 = "3".repeat(40);

const commit: CommitData = {
  tree: T,
  parents: [P1, P2],
  author: { name: "Hephaestus", email: "heph@olympus.example", timestamp: 1_700_000_000, tzOffsetMinutes: 330 },
  committer: { name: "Director", email: "director@pantheon.invalid", timestamp: 1_700_000_001, tzOffsetMinutes: -60 },
  message: "task ENG-H-0007 claim by Hephaestus\n\nPantheon-Op: task.claim\nPantheon-Actor: Hephaestus\n",
};

describe("commit codec", () => {
  it("encodes git's exact layout and parses it back", () => {
    const buf = encodeCommit(commit);
    expect(buf.toString()).toBe(
      `tree ${T}\nparent ${P1}\nparent ${P2}\n` +
        "author Hephaestus <heph@olympus.example> 1700000000 +0530\n" +
        "committer Director <director@pantheon.invalid> 1700000001 -0100\n\n" +
        commit.message,
    );
    expect(parseCommit(buf)).toEqual(commit);
  });

  it("ends a message with a newline and sanitises identities like git", () => {
    const c = parseCommit(
      encodeCommit({
        ...commit,
        parents: [],
        message: "no newline",
        author: { ...commit.author, name: " <Eve>\nEvil. ", email: "<e@x>" },
      }),
    );
    expect(c.message).toBe("no newline\n");
    expect(c.parents).toEqual([]);
    expect(c.author.name).toBe("EveEvil");
    expect(c.author.email).toBe("e@x");
    expect(withoutCrud("  J. R. R. Tolkien. ")).toBe("J. R. R. Tolkien");
    expect(
      encodeCommit({ ...commit, message: "" })
        .toString()
        .endsWith("-0100\n\n"),
    ).toBe(true);
  });

  it("tolerates multi-line gpgsig and encoding headers", () => {
    const raw = Buffer.from(
      `tree ${T}\nparent ${P1}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 -0000\nencoding UTF-8\n` +
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nSigned\n\nbody\n",
    );
    const c = parseCommit(raw);
    expect(c).toMatchObject({ tree: T, parents: [P1], message: "Signed\n\nbody\n" });
    expect(c.committer).toEqual({ name: "C", email: "c@x", timestamp: 2, tzOffsetMinutes: 0 });
    expect(() => parseCommit(Buffer.from("author A <a@x> 1 +0000\n\nm\n"))).toThrow(/no tree header/);
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
