import { describe, expect, it } from "vitest";
import { ID_KINDS, idCandidates, labelCandidates, taskIdCandidates } from "../../../src/cli/id-candidates.js";
import { PRIORITIES } from "../../../src/domain/priority.js";
import { TASK_ROLES } from "../../../src/domain/roles.js";
import { listColumns } from "../../../src/domain/task-columns.js";
import { TASK_STATUSES } from "../../../src/domain/task-status.js";
import { aTaskSummary } from "../../helpers/builders.js";

const tasks = [
  { number: 7, role: "engineer", priority: "HIGH", status: "TODO" },
  { number: 12, role: "tester", priority: "LOW", status: "UNDERWAY" },
  { number: 70, role: "engineer", priority: "MEDIUM", status: "COMPLETE" },
] as const;

describe("idCandidates", () => {
  it("filters tasks by what the argument accepts, by id prefix in any case, in number order", () => {
    expect(idCandidates("task", [...tasks].reverse(), "")).toEqual(["ENG-H-0007", "TST-L-0012", "ENG-M-0070"]);
    expect(idCandidates("task-claimable", tasks, "")).toEqual(["ENG-H-0007"]);
    expect(idCandidates("task-open", tasks, "tst")).toEqual(["TST-L-0012"]);
    expect(idCandidates("task-closed", tasks, "ENG-M")).toEqual(["ENG-M-0070"]);
  });

  it("matches a prefix of digits against the number, as ids may be typed (7, 0007)", () => {
    expect(idCandidates("task", tasks, "7")).toEqual(["ENG-H-0007", "ENG-M-0070"]);
    expect(idCandidates("task", tasks, "0012")).toEqual(["TST-L-0012"]);
  });

  it("offers active missions, their personas once each, and pending reviews", () => {
    const missions = [
      { number: 1, status: "ENDED", persona: "Hera" },
      { number: 2, status: "ACTIVE", persona: "Hephaestus" },
      { number: 3, status: "ACTIVE", persona: "Hephaestus" },
    ];
    expect(idCandidates("mission", missions, "")).toEqual(["MSN-0001", "MSN-0002", "MSN-0003"]);
    expect(idCandidates("mission-active", missions, "msn")).toEqual(["MSN-0002", "MSN-0003"]);
    expect(idCandidates("persona", missions, "he")).toEqual(["Hephaestus"]);
    expect(
      idCandidates(
        "review-pending",
        [
          { number: 1, status: "APPROVED" },
          { number: 2, status: "PENDING" },
        ],
        "",
      ),
    ).toEqual(["RVW-002"]);
    expect(idCandidates("epic", [{ number: 1, priority: "HIGH" }], "EPC")).toEqual(["EPC-H-0001"]);
  });

  it("never offers a persona name a record carries that is not a valid name (control characters, shell syntax, look-alikes)", () => {
    const missions = [
      { number: 1, status: "ACTIVE", persona: "He\u001b]0;pwned\u0007ra" },
      { number: 2, status: "ACTIVE", persona: "Hades$(touch x)" },
      { number: 3, status: "ACTIVE", persona: "Hestia" },
      { number: 4, status: "ACTIVE", persona: "Hеstia" }, // a Cyrillic е: mixed alphabets
    ];
    expect(idCandidates("persona", missions, "h")).toEqual(["Hestia"]);
    // A look-alike of the Director's name is no persona's name, wherever it comes from.
    expect(idCandidates("persona", [{ number: 5, status: "ACTIVE", persona: "Dіrector" }], "d")).toEqual([]);
  });

  it("answers the same from the columns as from the rows (the fast path's way), for every kind and prefix", () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      aTaskSummary({
        number: i + 1 + (i > 150 ? 850 : 0),
        title: `t${i}`,
        role: TASK_ROLES[(i * 7) % TASK_ROLES.length]!,
        priority: PRIORITIES[(i * 3) % PRIORITIES.length]!,
        status: TASK_STATUSES[(i * 5) % TASK_STATUSES.length]!,
      }),
    );
    const cols = listColumns(rows);
    for (const kind of ID_KINDS.filter((k) => k.startsWith("task"))) {
      for (const prefix of [
        "",
        "E",
        "eng",
        "ENG-H",
        "ENG-H-00",
        "TST-L-0",
        "9",
        "1",
        "0012",
        "DOC-M-0010",
        "X",
        "ENG-Q",
      ]) {
        expect(taskIdCandidates(kind, cols, prefix), `${kind} ${prefix}`).toEqual(idCandidates(kind, rows, prefix));
      }
    }
  });

  it("offers the labels in use, from the rows or the columns alike, and never one that is not a label word", () => {
    const row = (number: number, labels: string[]) => ({ ...tasks[0], number, labels });
    const rows = [row(1, ["api", "auth"]), row(2, ["db", "api"]), row(3, ["$(touch x)", "Api", "a b"]), row(4, [])];
    expect(idCandidates("label", rows, "")).toEqual(["api", "auth", "db"]);
    expect(idCandidates("label", rows, "A")).toEqual(["api", "auth"]);
    // Valid summaries from the builder, then the labels as written: a hostile one ("$(touch x)")
    // must reach the columns for the test to show it is never offered.
    const summaries = rows.map(({ number, role, priority, status, labels }) => ({
      ...aTaskSummary({ number, role, priority, status }),
      labels,
    }));
    for (const prefix of ["", "a", "au", "d", "$", "x"])
      expect(labelCandidates(listColumns(summaries), prefix), prefix).toEqual(idCandidates("label", rows, prefix));
  });
});
