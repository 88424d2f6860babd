/**
 * project.json changes received by a sync are reported by field (DESIGN §3.2; issue 12 point 1's
 * channel: a collaborator with push access edits the shared settings with plumbing, and the
 * other clone is told what changed instead of "0 records received"), in --json and on a
 * terminal, with the remote's text escaped.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/store/state/canonical-json.js";
import { makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { writeOntoRef } from "../cli/fixture.js";

/** Edits project.json on clone 0's state with plumbing and publishes it. */
async function editProjectAndPublish(c0: Clone, edit: (p: any) => void): Promise<void> {
  const project = JSON.parse(c0.git("cat-file", "-p", `${REF}:project.json`));
  edit(project);
  writeOntoRef(c0.dir, { "project.json": canonicalJson(project) }, "edit project settings");
  await c0.ok(["sync"]);
}

const EDIT = (p: any) => {
  p.description = "Ship it \u001b[31mnow";
  p.worktree.copy = [".env", ".npmrc"];
  p.assistant = "codex";
  p.updatedAt = "2030-01-01T00:00:00.000Z";
};

describe("project.json changes received by a sync", () => {
  it("a fast-forward names each changed field with both values (--json), updatedAt left out", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await editProjectAndPublish(c0, EDIT);
    const report = await c1.json<any>(["sync"], "sync");
    expect(report.action).toBe("fast-forward");
    expect(report.received).toBe(0);
    expect(report.projectChanges).toEqual([
      { field: "assistant", from: null, to: "codex" },
      { field: "description", from: "", to: "Ship it \u001b[31mnow" },
      { field: "worktree.copy", from: [], to: [".env", ".npmrc"] },
    ]);
  });

  it("a merge reports them on a terminal, one line per field, the remote's text escaped", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c1.ok(["task", "create", "--title", "Local", "--role", "engineer"]);
    await editProjectAndPublish(c0, EDIT);
    const r = await c1.ok(["sync"]);
    expect(r.stdout).toMatch(/^✓ Synced with origin: merged/);
    expect(r.stdout).toContain('  project.json assistant: null → "codex"');
    expect(r.stdout).toContain('  project.json worktree.copy: [] → [".env",".npmrc"]');
    expect(r.stdout).toContain('  project.json description: "" → "Ship it \\u001b[31mnow"');
    expect(r.stdout).not.toContain("\u001b");
    // nothing to report when project.json did not change
    await c0.ok(["task", "create", "--title", "Remote", "--role", "engineer"]);
    await c0.ok(["sync"]);
    expect((await c1.json<any>(["sync"], "sync")).projectChanges).toEqual([]);
  });
});
