/**
 * counters.json is the allocator (DESIGN §1.2, §2.1), and a sync takes the maximum per kind, so
 * one crafted (or hand-edited) value reaches every clone. Found by the issue 12 verification: past
 * the largest number an id can name (1,000,000,000), `task create` made a task no command could
 * address, and `review create` wrote reviews/00/1000000000000.json, a path the layout does not
 * accept: the new review was ignored at once, and `doctor --fix` would have deleted it. A number
 * that cannot be named is refused before anything is written.
 */
import { describe, expect, it } from "vitest";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { rewriteState } from "../../helpers/state-plumbing.js";
import { project } from "../cli/fixture.js";

describe("counters.json past the largest number an id can name", () => {
  it.each([
    ["tasks", ["task", "create", "--title", "Too far", "--role", "engineer"]],
    ["reviews", ["review", "create", "--title", "Too far"]],
    ["epics", ["epic", "create", "--title", "Too far"]],
    ["missions", ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]],
  ] as const)("%s: create is refused (exit 1) naming counters.json; the ref is unchanged", async (kind, argv) => {
    const p = project(makeRepo());
    await p.ok(["init", "--yes"]);
    rewriteState(p.dir, { "counters.json": (c) => ({ ...c, [kind]: 1_000_000_000 }) });
    const before = stateRef(p.dir);
    const r = await p.run([...argv]);
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr.split("\n")[0]).toMatch(/^✗ .*counters\.json/);
    expect(r.stderr.split("\n")[0]).toContain("1000000000");
    expect(stateRef(p.dir), "nothing written").toBe(before);
    const doctor = await p.run(["doctor"]);
    expect(doctor.exitCode, "doctor, which the refusal's hint names, reports it").toBe(1);
    expect(doctor.stdout + doctor.stderr).toMatch(
      new RegExp(`counters\\.json says ${kind} 1000000000: no new ${kind} can be numbered`),
    );
  });

  it("the last number that can be named is still given out", async () => {
    const p = project(makeRepo());
    await p.ok(["init", "--yes"]);
    rewriteState(p.dir, { "counters.json": (c) => ({ ...c, reviews: 999_999_999 }) });
    await p.ok(["review", "create", "--title", "Last one"]);
    expect((await p.json<any>(["review", "show", "1000000000"], "review")).title).toBe("Last one");
  });
});
