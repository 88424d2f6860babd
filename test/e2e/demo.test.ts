import { describe, expect, it } from "vitest";
import { runBin } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

describe("pantheon demo", () => {
  it("tells the whole story with real commands, needing no assistant, and cleans up", () => {
    // As a new user runs it: no git identity anywhere (the demo sets its own, and says nothing of it).
    const noIdentity = {
      NO_COLOR: "1",
      GIT_AUTHOR_NAME: undefined,
      GIT_AUTHOR_EMAIL: undefined,
      GIT_COMMITTER_NAME: undefined,
      GIT_COMMITTER_EMAIL: undefined,
      EMAIL: undefined,
      HOME: tempDir(),
    };
    const r = runBin(["demo"], { cwd: tempDir(), env: noIdentity });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out + r.stderr).not.toMatch(/git has no user\.name|committing as/);
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
