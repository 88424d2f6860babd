import { describe, expect, it } from "vitest";
import { idCandidates } from "../../../src/cli/id-candidates.js";

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
    expect(idCandidates("review-pending", [{ number: 1, status: "APPROVED" }, { number: 2, status: "PENDING" }], "")).toEqual(["RVW-002"]);
    expect(idCandidates("epic", [{ number: 1, priority: "HIGH" }], "EPC")).toEqual(["EPC-H-0001"]);
  });
});
