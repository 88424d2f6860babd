/**
 * Labels and acceptance criteria written by someone else (the ref is anyone's push): a label
 * that is not a word (shell syntax) or a criterion with terminal control sequences fails the
 * task's schema. The record is named as corrupt and skipped by lists, refused by the commands
 * that need it, never printed raw and never offered to a shell by completion.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/store/state/canonical-json.js";
import { aTask } from "../../helpers/builders.js";
import { stateRef, git } from "../../helpers/repo.js";
import { initProject, writeOntoRef, REF } from "../cli/fixture.js";

describe("crafted labels and criteria", () => {
  it("are refused by the schema: named as corrupt, escaped, skipped by lists, never offered by completion", async () => {
    const p = await initProject();
    await p.ok(["task", "create", "--title", "Sound", "--role", "engineer", "--label", "api"]);
    const valid = aTask({ uid: "task-uid-0002", number: 2, labels: ["api"] });
    const criterion = {
      id: "crit-0001",
      text: "red \u001b[31m alarm\u0007",
      done: false,
      by: "Mallory",
      at: valid.createdAt,
    };
    const counters = JSON.parse(git(p.dir, "cat-file", "-p", `${REF}:counters.json`));
    writeOntoRef(p.dir, {
      "tasks/02/2.json": canonicalJson({ ...valid, labels: ["api", "$(touch pwned)"] }),
      "tasks/03/3.json": canonicalJson({ ...valid, uid: "task-uid-0003", number: 3, acceptance: [criterion] }),
      "counters.json": canonicalJson({ ...counters, tasks: 3 }),
    });
    const ref = stateRef(p.dir);

    const list = await p.run(["task", "list", "--label", "api"]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout.split("\n")[1]).toMatch(/^ENG-M-0001\tTODO\tSound/);
    expect(list.stdout).not.toContain("ENG-H-0002");
    expect(list.stderr).toContain("tasks/02/2.json");
    expect(list.stderr).toContain("tasks/03/3.json");
    expect(list.stderr).not.toMatch(/[\u001b\u0007]/);

    const show = await p.run(["task", "show", "3"]);
    expect(show.exitCode).toBe(1);
    expect(show.stderr).toMatch(/^✗ Record tasks\/03\/3\.json .* is corrupt/);
    expect(show.stderr).not.toMatch(/[\u001b\u0007]/);
    // A mutation that needs it is refused and writes nothing.
    expect((await p.run(["task", "check", "3", "1"])).exitCode).toBe(1);
    expect(stateRef(p.dir)).toBe(ref);

    const offered = await p.run(["__complete", "label", ""]);
    expect(offered.stdout).toBe("api\n");
  });
});
