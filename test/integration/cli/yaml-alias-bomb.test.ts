/**
 * A YAML alias bomb ("billion laughs": nine aliases per level, nine levels) in `task import`
 * or `init --config` is a bad input file: exit 2 naming the file, never "this is a bug"
 * (issue 12 point 10), and nothing is written.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, stateRef } from "../../helpers/repo.js";
import { expectRefused, initProject, project } from "./fixture.js";

function bomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = "abcdefghi";
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(",")}]`,
    );
  return `${lines.join("\n")}\n`;
}

describe("a YAML alias bomb", () => {
  it("task import: exit 2 naming the file, the ref unchanged", async () => {
    const p = await initProject();
    writeFileSync(join(p.dir, "bomb.yaml"), bomb());
    const r = await expectRefused(p, ["task", "import", "bomb.yaml"], 2, [/bomb\.yaml/, /alias/i]);
    expect(r.stderr).not.toContain("bug");
  });

  it("init --config: exit 2 naming the file, no state created", async () => {
    const p = project(makeRepo());
    writeFileSync(join(p.dir, "pantheon.yaml"), bomb());
    const r = await expectRefused(p, ["init", "--config", "pantheon.yaml"], 2, [/pantheon\.yaml/, /alias/i]);
    expect(r.stderr).not.toContain("bug");
    expect(stateRef(p.dir)).toBeNull();
  });

  it("a few aliases, as a real file uses them, still import", async () => {
    const p = await initProject();
    writeFileSync(join(p.dir, "few.yaml"), "- {title: One, role: &r engineer}\n- {title: Two, role: *r}\n");
    await p.ok(["task", "import", "few.yaml"]);
  });
});
