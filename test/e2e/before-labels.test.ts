/**
 * A teammate on the version before labels and acceptance criteria (same schema: nothing to
 * migrate) works on tasks that carry them: its writes and its sync merges keep both fields as
 * it found them (records decode loosely, DESIGN §1.3), so nothing this version wrote is lost.
 */
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.js";
import { makeOriginAndClones, type Clone } from "../helpers/clones.js";
import { BEFORE_LABELS, releaseBin, runRelease } from "../helpers/previous-release.js";
import { stateJson } from "../helpers/state-plumbing.js";

const old = (c: Clone, argv: string[]) => {
  const r = runRelease(BEFORE_LABELS, argv, { cwd: c.dir });
  if (r.exitCode !== 0) throw new Error(`old pantheon ${argv.join(" ")} exited ${r.exitCode}\n${r.stderr}`);
  return r;
};

describe("the version before labels, on tasks that have them", () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
    releaseBin(BEFORE_LABELS); // built once, then cached under node_modules/.cache
  }, 180_000);

  it("keeps labels and criteria through its own writes and through a sync merge it makes", async () => {
    const { clones, originRef } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Task API", "--role", "eng", "--label", "api", "--ac", "returns 404"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    const before = stateJson(c1.dir, "tasks/01/1.json") as any;

    // Its own writes: the record it writes back keeps both fields exactly.
    old(c1, ["task", "edit", "1", "--title", "Task API, renamed by the old version"]);
    old(c1, ["task", "note", "1", "from the old version"]);
    const written = stateJson(c1.dir, "tasks/01/1.json") as any;
    expect(written.labels).toEqual(before.labels);
    expect(written.acceptance).toEqual(before.acceptance);

    // Meanwhile this version labels and checks; the old version merges both sides.
    await c0.ok(["task", "label", "1", "auth"]);
    await c0.ok(["task", "check", "1", "1"]);
    await c0.ok(["sync"]);
    old(c1, ["sync"]);
    expect(c1.ref()).toBe(originRef());
    await c0.ok(["sync"]);
    const t = await c0.json<any>(["task", "show", "1"], "task");
    expect(t.title).toBe("Task API, renamed by the old version");
    expect(t.labels).toEqual(["api", "auth"]);
    expect(t.acceptance).toEqual([{ id: before.acceptance[0].id, text: "returns 404", done: true }]);
    expect(t.notes.map((n: any) => n.text)).toEqual(["from the old version"]);
  }, 60_000);
});
