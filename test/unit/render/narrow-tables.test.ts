/**
 * Every table view fits a terminal of 80 and of 120 columns legibly (pure: views in, text out).
 * A title keeps at least 40 characters in task tables; columns such as BLOCKED BY are cut or
 * abbreviated first (`ENG-H-0002 +2`), droppable ones go before the title is cut.
 */
import { describe, expect, it } from "vitest";
import { emptyRefs, type Refs } from "../../../src/domain/refs.js";
import { displayWidth } from "../../../src/render/escape.js";
import { PLAIN, type Style } from "../../../src/render/paint.js";
import { taskTable } from "../../../src/render/task-text.js";
import { fitIds, table } from "../../../src/render/table.js";
import { nextText, nextView, prereqText } from "../../../src/render/question-views.js";
import { reviewTable, reviewView } from "../../../src/render/review-view.js";
import { missionTable, missionView } from "../../../src/render/mission-view.js";
import { activityTable, personaEntryView, personaTable } from "../../../src/render/persona-view.js";
import { epicTable, epicView } from "../../../src/render/epic-view.js";
import { dashboardText } from "../../../src/render/dashboard-text.js";
import type { DashboardView } from "../../../src/render/dashboard-view.js";
import { taskSummaryView } from "../../../src/render/task-view.js";
import { ReviewSchema } from "../../../src/domain/schemas/review.js";
import { EpicSchema } from "../../../src/domain/schemas/epic.js";
import { aMission, aTask } from "../../helpers/builders.js";

const AT = "2026-01-01T00:00:00.000Z";
const term = (width: number): Style => ({ paint: PLAIN, tty: true, width });
const lines = (text: string) => text.split("\n");
const widest = (text: string) => Math.max(...lines(text).map(displayWidth));

const TITLES = [
  "Design the authentication flow for the web client and the CLI",
  "Implement the login endpoint with rate limiting and audit logging",
  "Implement the session store on Redis with expiry",
  "Test login end to end, including lockout after failed attempts",
  "Write the user documentation for signing in",
];

/** Five tasks: one claimed, four waiting (one on three tasks). */
function fixture(): { refs: Refs; views: ReturnType<typeof taskSummaryView>[] } {
  const refs = emptyRefs();
  const tasks = [
    aTask({ number: 1, role: "architect", title: TITLES[0]!, status: "UNDERWAY", claimedBy: "Athena", mission: 3 }),
    aTask({ number: 2, title: TITLES[1]!, dependencies: [1] }),
    aTask({ number: 3, title: TITLES[2]!, dependencies: [1] }),
    aTask({ number: 4, role: "tester", title: TITLES[3]!, dependencies: [2, 3, 1] }),
    aTask({ number: 5, role: "documentarian", priority: "MEDIUM", title: TITLES[4]!, dependencies: [4] }),
  ];
  for (const t of tasks) refs.tasks.set(t.number, t);
  return { refs, views: tasks.map((t) => taskSummaryView(t, refs)) };
}

/** How many characters of `title` a line shows (before its `…`). */
function shownOf(line: string, title: string): number {
  for (let n = title.length; n > 0; n--) if (line.includes(title.slice(0, n))) return n;
  return 0;
}

describe("task tables at 80 and 120 columns", () => {
  it("at 80 columns every title shows at least 40 characters; held and blocked share a column, abbreviated", () => {
    const { views } = fixture();
    const text = taskTable(views, term(80));
    expect(widest(text)).toBeLessThanOrEqual(80);
    const [header, ...rows] = lines(text);
    expect(header).toMatch(/^ID\s+STATUS\s+TITLE\s+HELD\/BLOCKED BY$/);
    rows.forEach((row, i) => {
      expect(shownOf(row, TITLES[i]!), row).toBeGreaterThanOrEqual(40);
    });
    expect(rows[0]).toMatch(/ Athena$/);
    expect(rows[1]).toMatch(/ ← ARC-H-0001$/);
    expect(rows[3]).toMatch(/ ← ENG-H-0002 \+2$/);
  });

  it("at 120 columns the columns are apart and titles whole; a long BLOCKED BY is cut before any title", () => {
    const { views } = fixture();
    const text = taskTable(views, term(120));
    expect(widest(text)).toBeLessThanOrEqual(120);
    const [header, ...rows] = lines(text);
    expect(header).toMatch(/^ID\s+STATUS\s+TITLE\s+CLAIMED BY\s+BLOCKED BY$/);
    rows.forEach((row, i) => {
      expect(row).toContain(TITLES[i]);
    });
    expect(rows[3]).toMatch(/ ENG-H-0002 \+2$/);
  });

  it("with only blockers (task blocked), BLOCKED BY stays its own column and titles keep 40 at 80", () => {
    const { views } = fixture();
    const text = taskTable(views.slice(1), term(80));
    const [header, ...rows] = lines(text);
    expect(header).toMatch(/^ID\s+STATUS\s+TITLE\s+BLOCKED BY$/);
    rows.forEach((row, i) => {
      expect(shownOf(row, TITLES[i + 1]!)).toBeGreaterThanOrEqual(40);
    });
    expect(widest(text)).toBeLessThanOrEqual(80);
  });

  it("piped output stays tab-separated, whole, with both columns", () => {
    const { views } = fixture();
    const text = taskTable(views, { paint: PLAIN, tty: false, width: 80 });
    expect(lines(text)[0]).toBe("ID\tSTATUS\tTITLE\tCLAIMED BY\tBLOCKED BY");
    expect(lines(text)[4]).toBe(`TST-H-0004\tTODO\t${TITLES[3]}\t\tENG-H-0002,ENG-H-0003,ARC-H-0001`);
  });
});

describe("table fitting", () => {
  it("fitIds keeps whole ids and counts the rest", () => {
    expect(fitIds("ENG-H-0002,ENG-H-0003,ARC-H-0001", 40)).toBe("ENG-H-0002,ENG-H-0003,ARC-H-0001");
    expect(fitIds("ENG-H-0002,ENG-H-0003,ARC-H-0001", 25)).toBe("ENG-H-0002,ENG-H-0003 +1");
    expect(fitIds("ENG-H-0002,ENG-H-0003,ARC-H-0001", 13)).toBe("ENG-H-0002 +2");
    expect(fitIds("ENG-H-0002", 13)).toBe("ENG-H-0002");
  });

  it("drops droppable columns, lowest first, only when the flexible one would fall under its least", () => {
    const cols = [
      { header: "A" },
      { header: "LONGNAME", drop: 1 },
      { header: "B", drop: 2 },
      { header: "T", flex: true, min: 20 },
    ];
    const rows = [["a", "x".repeat(20), "bbbbbbbbbb", "t".repeat(30)]];
    expect(lines(table(cols, rows, term(80)))[0]).toMatch(/^A\s+LONGNAME\s+B\s+T$/);
    expect(lines(table(cols, rows, term(40)))[0]).toMatch(/^A\s+B\s+T$/);
    expect(lines(table(cols, rows, term(30)))[0]).toMatch(/^A\s+T$/);
  });
});

const at80and120 = [80, 120] as const;

describe.each(at80and120)("every other table view fits %i columns legibly", (width) => {
  const style = term(width);

  it("review list", () => {
    const reviews = [1, 2, 3].map((n) =>
      reviewView(
        ReviewSchema.parse({
          uid: `rvw-uid-000${n}`,
          number: n,
          title: TITLES[n]!,
          type: "task_completion",
          status: n === 1 ? "APPROVED" : "PENDING",
          task: n,
          requestedBy: "Hephaestus",
          reviewer: n === 1 ? "Argus" : null,
          reason: null,
          artifact: null,
          formerNumbers: [],
          createdAt: AT,
          updatedAt: AT,
          createdBy: "Hephaestus",
        }),
        fixture().refs,
      ),
    );
    const text = reviewTable(reviews, style);
    expect(widest(text)).toBeLessThanOrEqual(width);
    lines(text)
      .slice(1)
      .forEach((row, i) => {
        expect(shownOf(row, TITLES[i + 1]!)).toBeGreaterThanOrEqual(width === 80 ? 30 : 40);
      });
    expect(lines(text)[0]).toContain(width === 80 ? "REQUESTED BY" : "REVIEWER");
  });

  it("mission list", () => {
    const objective = "ship user login with rotating refresh tokens";
    const missions = ["Hephaestus", "Artemis", "Athena"].map((persona, i) =>
      missionView(aMission({ number: i + 1, persona, objective, codename: "distant-willow" })),
    );
    const text = missionTable(missions, style);
    expect(widest(text)).toBeLessThanOrEqual(width);
    for (const row of lines(text).slice(1)) expect(shownOf(row, objective)).toBeGreaterThanOrEqual(20);
    if (width === 120) expect(text).toContain("distant-willow");
  });

  it("persona list and activity", () => {
    const bio = "Greek god of smiths, fire and metalworking, maker of the gods' weapons";
    const personas = personaTable(
      [
        personaEntryView({
          name: "Huitzilopochtli",
          role: "administrator",
          source: "theme",
          bio,
          missions: 12,
          active: { number: 3 },
        }),
      ],
      style,
    );
    expect(widest(personas)).toBeLessThanOrEqual(width);
    expect(shownOf(lines(personas)[1]!, bio)).toBeGreaterThanOrEqual(20);
    const activity = activityTable(
      [{ persona: "Huitzilopochtli", role: "administrator", missions: 3, completedMissions: 2, tasksCompleted: 9 }],
      style,
    );
    expect(widest(activity)).toBeLessThanOrEqual(width);
  });

  it("epic list", () => {
    const { refs } = fixture();
    const epic = EpicSchema.parse({
      uid: "epic-uid-0001",
      number: 1,
      title: "Release 1.0: sign-in, sessions and the documentation of both",
      description: "",
      priority: "HIGH",
      aborted: null,
      formerNumbers: [],
      createdAt: AT,
      updatedAt: AT,
      createdBy: "Director",
    });
    const text = epicTable(
      [epicView({ epic, status: "UNDERWAY", progress: { complete: 12, total: 105, percent: 11 }, tasks: [], refs })],
      style,
    );
    expect(widest(text)).toBeLessThanOrEqual(width);
    expect(shownOf(lines(text)[1]!, epic.title)).toBeGreaterThanOrEqual(24);
  });

  it("task prereqs and task next", () => {
    const { refs, views } = fixture();
    const prereqs = prereqText({ kind: "task", ...views[4]! }, views.slice(0, 4), style);
    expect(widest(prereqs)).toBeLessThanOrEqual(width);
    lines(prereqs)
      .slice(2)
      .forEach((row, i) => {
        expect(shownOf(row, TITLES[i]!)).toBeGreaterThanOrEqual(40);
      });
    const ready = aTask({ number: 9, title: TITLES[1]!, dependencies: [] });
    refs.tasks.set(9, ready);
    const handoff = {
      id: "n1",
      at: AT,
      by: "Athena",
      kind: "handoff" as const,
      text: "Follow ADR-001 and start with the token store, then the rate limiter and its tests",
    };
    const next = nextText([nextView(ready, refs, new Date(AT), handoff)], style, null);
    expect(widest(next)).toBeLessThanOrEqual(width);
    // The reason wraps at words: no line ends inside one.
    expect(next.replace(/\n +/g, " ")).toContain("handoff note by Athena: Follow ADR-001 and start");
  });

  it("dashboard: the Blocked list is aligned, and no line passes the width", () => {
    const { views } = fixture();
    const d: DashboardView = {
      project: { name: "vw", type: "other" },
      role: null,
      epic: null,
      missions: [],
      duplicateNames: [],
      tasks: {
        total: 5,
        byStatus: { TODO: 4, READY: 0, UNDERWAY: 1, REVIEW: 0, BLOCKED: 0, COMPLETE: 0, ABORTED: 0 },
        completionRate: 0,
      },
      epics: [],
      blocked: views.slice(1),
      blockedTotal: 4,
      reviews: [],
      orphanedClaims: [],
      recent: [],
    };
    const text = dashboardText(d, style);
    expect(widest(text)).toBeLessThanOrEqual(width);
    const blocked = lines(text).filter((l) => / ← /.test(l));
    expect(blocked).toHaveLength(4);
    const titleColumn = blocked.map((l, i) => l.indexOf(TITLES[i + 1]!.slice(0, 20)));
    expect(new Set(titleColumn).size, blocked.join("\n")).toBe(1);
    blocked.forEach((l, i) => {
      expect(shownOf(l, TITLES[i + 1]!)).toBeGreaterThanOrEqual(40);
    });
  });
});
