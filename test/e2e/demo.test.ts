import { describe, expect, it } from "vitest";
import { runBin } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

describe("pantheon demo", () => {
  it("tells the whole story with real commands, needing no assistant, and cleans up", () => {
    const r = runBin(["demo"], { cwd: tempDir(), env: { NO_COLOR: "1" } });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = r.stdout;
    for (const expected of [
      '✓ Initialized Pantheon for "pantheon-demo-',
      "✗ Cannot claim ENG-H-0002 as Hephaestus: it is blocked by 1 unfinished dependency",
      "✓ Handed off ENG-H-0002",
      "✗ Cannot claim ENG-H-0002 as Daedalus: it is already claimed by Hephaestus",
      "✓ Unassigned ENG-L-0004",
      "also: RVW-001",
      "note: ENG-H-0002 still in review",
      "✓ Approved RVW-001",
      "== Active personas (5)",
      "EPC-H-0001 [################]   3/3 100% COMPLETE User login",
      "adopted its state",
      "renumbered DOC-M-0005 → DOC-M-0007 (the number was taken on origin)",
      "ENG-L-0004: your claim by Vulcan was dropped; Daedalus claimed it first on origin",
      "INS-M-0006\tTODO\tReview the docs\t\tDOC-M-0007",
      "sync merge with origin",
      "(the temporary repositories were removed; --keep keeps them, and pantheon -C <dir> web shows them)",
    ])
      expect(out, expected).toContain(expected);
    expect(out).toMatch(/\*\s+[0-9a-f]{7} [^\n]*: sync merge with origin\n\|\\/);
  });
});
