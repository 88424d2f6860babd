import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MISSION_PART_MAX, missionPart } from "../../../src/services/mission-brief.js";
import { aMission, aTask } from "../../helpers/builders.js";

/** DESIGN §5: the mission part of a persona's brief is at most 1,500 characters for any project. */
describe("missionPart", () => {
  const text = (max: number) =>
    fc.string({ unit: fc.constantFrom("a", " ", "`", "\n", "é", "x", "```"), maxLength: max });

  it("stays within MISSION_PART_MAX for any objective, titles and number of handoffs", () => {
    fc.assert(
      fc.property(
        text(20_000),
        text(200),
        fc.array(text(200), { maxLength: 60 }),
        fc.nat(100_000),
        (objective, title, titles, extra) => {
          const mission = aMission({ number: 99_999, codename: "lunar-nebula", objective });
          const task = aTask({ number: 123_456, title: title.trim() || "t", status: "UNDERWAY" });
          const handoffs = titles.map((t, i) => aTask({ number: i + 1, title: t.trim() || "t" }));
          const part = missionPart({ mission, task, handoffs, handoffTotal: handoffs.length + extra });
          expect(part.length).toBeLessThanOrEqual(MISSION_PART_MAX);
          expect(part).toContain("--mission MSN-99999:lunar-nebula");
        },
      ),
      { numRuns: 200 },
    );
  });

  it("lists ids and short titles and points at the commands for the rest", () => {
    const mission = aMission({ number: 8, codename: "lunar-nebula", objective: "Ship login", role: "engineer" });
    const handoffs = Array.from({ length: 50 }, (_, i) => aTask({ number: i + 1, title: `Task ${i + 1}` }));
    const part = missionPart({ mission, task: null, handoffs, handoffTotal: 50 });
    expect(part).toContain("Handed off to your role and waiting: 50");
    expect(part).toMatch(/Handoff ENG-[CHML]-0001: Task 1\n/);
    expect(part).not.toContain("Task 5\n"); // four are shown
    expect(part).toContain("pantheon task list --status READY --role engineer");
    expect(part).toContain("Objective: Ship login");
    expect(part).not.toContain("mission show"); // the whole objective is there
  });
});
