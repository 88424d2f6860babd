/**
 * The every-day views through the CLI on a terminal of a fixed width (the render tests cover
 * each view; this one checks the width reaches them): a new Director at 80 columns reads titles.
 */
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/render/escape.js";
import { initializedProject } from "../../helpers/project.js";

const DESIGN = "Design the authentication flow for the web client and the CLI";
const TEST = "Test login end to end, including lockout after failed attempts";

describe("task list on a terminal of 80 and 120 columns", () => {
  it("shows at least 40 characters of each title at 80, abbreviating what blocks it; everything at 120", async () => {
    const p = await initializedProject();
    await p.ok(["mission", "start", "--role", "architect", "--persona", "Athena"]);
    await p.ok(["task", "create", "--title", DESIGN, "--role", "architect"]);
    await p.ok(["task", "create", "--title", "Implement the login endpoint", "--role", "eng", "--depends-on", "1"]);
    await p.ok(["task", "create", "--title", "Implement the session store", "--role", "eng", "--depends-on", "1"]);
    await p.ok(["task", "create", "--title", TEST, "--role", "tester", "--depends-on", "2", "--depends-on", "3"]);
    await p.ok(["--as", "Athena", "task", "claim", "1"]);

    const narrow = (await p.ok(["task", "list"], { tty: true, columns: 80 })).stdout.trimEnd().split("\n");
    for (const line of narrow) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(narrow[1]).toContain(DESIGN.slice(0, 40));
    expect(narrow[1]).toMatch(/ Athena$/);
    expect(narrow[4]).toContain(TEST.slice(0, 40));
    expect(narrow[4]).toMatch(/ ← ENG-M-0002 \+1$/);

    const wide = (await p.ok(["task", "list"], { tty: true, columns: 120 })).stdout.trimEnd().split("\n");
    expect(wide[0]).toMatch(/^ID\s+STATUS\s+TITLE\s+CLAIMED BY\s+BLOCKED BY$/);
    expect(wide[4]).toContain(TEST);
    expect(wide[4]).toMatch(/ENG-M-0002,ENG-M-0003$/);
  });
});
