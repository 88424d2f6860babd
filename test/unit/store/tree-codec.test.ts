import { describe, expect, it } from "vitest";
import { encodeTree, isTreeMode, parseTree, type TreeEntry } from "../../../src/store/git/tree-codec.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

describe("tree codec", () => {
  it("sorts by bytes with a tree's name compared as if it ended in '/'", () => {
    const entries: TreeEntry[] = [
      { mode: "100644", name: "a0", oid: A },
      { mode: "40000", name: "a", oid: B },
      { mode: "100644", name: "a.json", oid: A },
      { mode: "100644", name: "a-b", oid: A },
      { mode: "100644", name: "b", oid: A },
      { mode: "40000", name: "a.", oid: B },
    ];
    expect(parseTree(encodeTree(entries)).map((e) => e.name)).toEqual(["a-b", "a.", "a.json", "a", "a0", "b"]);
    // A blob named "a" sorts before "a.json": a shorter name ends first.
    const blobA = encodeTree([
      { mode: "100644", name: "a.json", oid: A },
      { mode: "100644", name: "a", oid: A },
    ]);
    expect(parseTree(blobA).map((e) => e.name)).toEqual(["a", "a.json"]);
  });

  it("round-trips entries, keeps odd modes verbatim, and encodes the binary layout", () => {
    const entries: TreeEntry[] = [
      { mode: "100755", name: "run.sh", oid: A },
      { mode: "040000", name: "old-tool-dir", oid: B },
      { mode: "160000", name: "sub", oid: A },
      { mode: "120000", name: "ünïcode", oid: B },
    ];
    const buf = encodeTree(entries);
    // "old-tool-dir" sorts as "old-tool-dir/", ahead of "run.sh".
    expect(parseTree(buf)).toEqual([entries[1], entries[0], entries[2], entries[3]]);
    expect(encodeTree(parseTree(buf))).toEqual(buf);
    const one = encodeTree([{ mode: "100644", name: "x", oid: A }]);
    expect(one).toEqual(Buffer.concat([Buffer.from("100644 x\0"), Buffer.from(A, "hex")]));
    expect(parseTree(Buffer.alloc(0))).toEqual([]);
  });

  it("recognises both spellings of the tree mode", () => {
    expect(isTreeMode("40000")).toBe(true);
    expect(isTreeMode("040000")).toBe(true);
    expect(isTreeMode("100644")).toBe(false);
    expect(isTreeMode("160000")).toBe(false);
  });

  it("rejects duplicate, empty or slashed names and truncated input", () => {
    expect(() =>
      encodeTree([
        { mode: "100644", name: "x", oid: A },
        { mode: "40000", name: "x", oid: B },
      ]),
    ).toThrow(/Duplicate/);
    expect(() => encodeTree([{ mode: "100644", name: "", oid: A }])).toThrow(/Invalid/);
    expect(() => encodeTree([{ mode: "100644", name: "a/b", oid: A }])).toThrow(/Invalid/);
    expect(() => encodeTree([{ mode: "100644", name: "x", oid: "nothex" }])).toThrow(/Invalid/);
    expect(() => parseTree(encodeTree([{ mode: "100644", name: "x", oid: A }]).subarray(0, 15))).toThrow(
      /Corrupt tree/,
    );
  });
});
