import { describe, expect, it } from "vitest";
import { DIRECTOR, IDENTIFY_HINT, personaActor, UNIDENTIFIED, type Actor } from "../../../src/domain/actor.js";
import {
  allowedActions,
  applyTaskEvent,
  TRANSITIONS,
  type TaskEvent,
  type TransitionFacts,
} from "../../../src/domain/task-lifecycle.js";
import { TASK_STATUSES, type TaskStatus } from "../../../src/domain/task-status.js";
import { InvalidTransitionError } from "../../../src/errors.js";
import { aMission, aTask } from "../../helpers/builders.js";

const AT = "2026-02-02T00:00:00.000Z";
const heph = personaActor("Hephaestus", aMission());
const CLAIMED: TaskStatus[] = ["UNDERWAY", "REVIEW", "BLOCKED"];

/** A task in `status`, claimed by Hephaestus on his ACTIVE mission when the state holds a claim. */
function taskIn(status: TaskStatus) {
  return aTask({ status, ...(CLAIMED.includes(status) ? { claimedBy: "Hephaestus", mission: 3 } : {}) });
}

function facts(actor: Actor, over: Partial<TransitionFacts> = {}): TransitionFacts {
  return { actor, force: false, blockedBy: [], claimMissionActive: true, ...over };
}

// Written from DESIGN §1.4, independently of the table in the code: the states from which each
// event is allowed for a privileged actor (the claimant on an ACTIVE mission of the task's role).
const ALLOWED_FROM: Record<TaskEvent, TaskStatus[]> = {
  claim: ["TODO", "READY"],
  resume: [], // needs the claim's mission ENDED: covered below
  start: ["TODO", "READY", "BLOCKED", "REVIEW", "UNDERWAY"], // from UNDERWAY: the claimant's no-op

  submit: ["UNDERWAY"],
  block: ["TODO", "READY", "UNDERWAY", "REVIEW"],
  unblock: [], // only an unclaimed BLOCKED task: covered below
  handoff: ["TODO", "BLOCKED", "UNDERWAY"],
  complete: ["UNDERWAY", "REVIEW"],
  abort: ["TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"],
  unassign: ["UNDERWAY", "REVIEW", "BLOCKED"],
  reopen: ["COMPLETE", "ABORTED"],
  approve: ["REVIEW"],
  reject: ["REVIEW"],
  release: ["UNDERWAY", "BLOCKED"],
};

const TARGET: Record<TaskEvent, TaskStatus | "same"> = {
  claim: "UNDERWAY",
  resume: "same",
  start: "UNDERWAY",
  submit: "REVIEW",
  block: "BLOCKED",
  unblock: "TODO",
  handoff: "READY",
  complete: "COMPLETE",
  abort: "ABORTED",
  unassign: "TODO",
  reopen: "TODO",
  approve: "COMPLETE",
  reject: "UNDERWAY",
  release: "TODO",
};

describe("task state table: every (state, event) pair for the claimant", () => {
  for (const event of Object.keys(ALLOWED_FROM) as TaskEvent[]) {
    for (const status of TASK_STATUSES) {
      const allowed = ALLOWED_FROM[event].includes(status);
      it(`${status} --${event}--> ${allowed ? TARGET[event] : "refused"}`, () => {
        const task = taskIn(status);
        const run = () => applyTaskEvent(task, event, facts(heph), AT, { id: "n1", text: "because" });
        if (!allowed) {
          expect(run).toThrow(InvalidTransitionError);
          return;
        }
        const next = run();
        if (event === "start" && status === "UNDERWAY") {
          expect(next, "no change at all: not even updatedAt or the note").toBe(task);
          return;
        }
        expect(next.status).toBe(TARGET[event] === "same" ? status : TARGET[event]);
        expect(next.updatedAt).toBe(AT);
      });
    }
  }
});

describe("update --status UNDERWAY on an UNDERWAY task (DESIGN §1.4 no-op row)", () => {
  it("is refused to anyone but the claimant, and is not offered in allowedActions", () => {
    const task = taskIn("UNDERWAY");
    const daedalus = personaActor("Daedalus", aMission({ persona: "Daedalus", number: 4 }));
    expect(() => applyTaskEvent(task, "start", facts(daedalus), AT)).toThrow(/claimed by Hephaestus/);
    expect(() => applyTaskEvent(task, "start", facts(DIRECTOR), AT)).toThrow(InvalidTransitionError);
    expect(allowedActions(task, facts(heph))).not.toContain("update --status UNDERWAY");
  });
});

describe("claim guard", () => {
  it("claims for the persona's mission", () => {
    const t = applyTaskEvent(aTask(), "claim", facts(heph), AT);
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: 3 });
  });
  it("refuses the Director, who has no mission", () => {
    expect(() => applyTaskEvent(aTask(), "claim", facts(DIRECTOR), AT)).toThrow(/Director has no mission/);
  });
  it("refuses a persona without a mission, and one whose mission ENDED", () => {
    expect(() => applyTaskEvent(aTask(), "claim", facts(personaActor("Ptah", null)), AT)).toThrow(/no ACTIVE mission/);
    const ended = personaActor("Ptah", aMission({ persona: "Ptah", status: "ENDED" }));
    expect(() => applyTaskEvent(aTask(), "claim", facts(ended), AT)).toThrow(/ENDED/);
  });
  it("refuses another role unless forced", () => {
    const tester = personaActor("Artemis", aMission({ persona: "Artemis", role: "tester" }));
    expect(() => applyTaskEvent(aTask(), "claim", facts(tester), AT)).toThrow(
      /an engineer task and Artemis is on a tester mission/,
    );
    expect(applyTaskEvent(aTask(), "claim", facts(tester, { force: true }), AT).claimedBy).toBe("Artemis");
  });
  it("refuses a blocked task unless forced", () => {
    expect(() => applyTaskEvent(aTask({ dependencies: [1] }), "claim", facts(heph, { blockedBy: [1] }), AT)).toThrow(
      /blocked by 1 unfinished dependency/,
    );
    expect(
      applyTaskEvent(aTask({ dependencies: [1] }), "claim", facts(heph, { blockedBy: [1], force: true }), AT).status,
    ).toBe("UNDERWAY");
  });
});

describe("resume", () => {
  const held = aTask({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: 2 });
  it("lets the same persona resume a claim left on an ENDED mission", () => {
    const t = applyTaskEvent(held, "resume", facts(heph, { claimMissionActive: false }), AT);
    expect(t).toMatchObject({ status: "UNDERWAY", claimedBy: "Hephaestus", mission: 3 });
  });
  it("makes another persona use --force", () => {
    const vulcan = personaActor("Vulcan", aMission({ persona: "Vulcan", number: 4 }));
    expect(() => applyTaskEvent(held, "resume", facts(vulcan, { claimMissionActive: false }), AT)).toThrow(
      /--force|ENDED/,
    );
    expect(
      applyTaskEvent(held, "resume", facts(vulcan, { claimMissionActive: false, force: true }), AT).claimedBy,
    ).toBe("Vulcan");
  });
  it("refuses while the claim's mission is ACTIVE, naming the holder", () => {
    const vulcan = personaActor("Vulcan", aMission({ persona: "Vulcan", number: 4 }));
    expect(() => applyTaskEvent(held, "resume", facts(vulcan), AT)).toThrow(/already claimed by Hephaestus/);
  });
});

describe("owners", () => {
  const underway = taskIn("UNDERWAY");
  const other = personaActor("Vulcan", aMission({ persona: "Vulcan", number: 4 }));
  const admin = personaActor("Zeus", aMission({ persona: "Zeus", role: "administrator", number: 5 }));
  it.each(["submit", "complete", "unassign", "handoff", "block"] as TaskEvent[])(
    "%s: refused for another persona, allowed for the Director and an administrator",
    (event) => {
      expect(() => applyTaskEvent(underway, event, facts(other), AT, { id: "n", text: "x" })).toThrow(
        InvalidTransitionError,
      );
      expect(() => applyTaskEvent(underway, event, facts(DIRECTOR), AT, { id: "n", text: "x" })).not.toThrow();
      expect(() => applyTaskEvent(underway, event, facts(admin), AT, { id: "n", text: "x" })).not.toThrow();
    },
  );
  it("unblock only an unclaimed BLOCKED task", () => {
    expect(applyTaskEvent(aTask({ status: "BLOCKED" }), "unblock", facts(other), AT).status).toBe("TODO");
    expect(() => applyTaskEvent(taskIn("BLOCKED"), "unblock", facts(heph), AT)).toThrow(/claimed by Hephaestus/);
  });
  it("unassign of a READY (unclaimed) task is for the Director or an administrator", () => {
    expect(() => applyTaskEvent(aTask({ status: "READY" }), "unassign", facts(other), AT)).toThrow(
      InvalidTransitionError,
    );
    expect(applyTaskEvent(aTask({ status: "READY" }), "unassign", facts(admin), AT).status).toBe("TODO");
  });
});

describe("an unidentified persona (DESIGN §1.7): none of the Director's owner rights", () => {
  const ALL_EVENTS = [...new Set(TRANSITIONS.map((r) => r.event))];
  it.each(TASK_STATUSES.flatMap((s) => ALL_EVENTS.map((e) => [s, e] as const)))(
    "%s × %s: allowed only where any persona without a mission is, and told how to identify",
    (status, event) => {
      const task = ["UNDERWAY", "REVIEW", "BLOCKED"].includes(status) ? taskIn(status) : aTask({ status });
      const asNobody = () =>
        applyTaskEvent(task, event, facts(personaActor("Nobody", null)), AT, { id: "n", text: "x" });
      const asUnidentified = () => applyTaskEvent(task, event, facts(UNIDENTIFIED), AT, { id: "n", text: "x" });
      let nobodyOk = true;
      try {
        asNobody();
      } catch {
        nobodyOk = false;
      }
      if (nobodyOk) expect(asUnidentified).not.toThrow();
      else {
        expect(asUnidentified).toThrow(InvalidTransitionError);
        try {
          asUnidentified();
        } catch (e) {
          expect((e as InvalidTransitionError).hint).toBe(IDENTIFY_HINT);
        }
      }
    },
  );
});

describe("effects", () => {
  it("handoff clears the claim and adds a handoff note", () => {
    const t = applyTaskEvent(taskIn("UNDERWAY"), "handoff", facts(heph), AT, { id: "n1", text: "design in ADR-1" });
    expect(t).toMatchObject({ status: "READY", claimedBy: null, mission: null });
    expect(t.notes).toEqual([{ id: "n1", at: AT, by: "Hephaestus", kind: "handoff", text: "design in ADR-1" }]);
  });
  it("complete records the claimant as completedBy, even when the Director closes", () => {
    expect(applyTaskEvent(taskIn("UNDERWAY"), "complete", facts(DIRECTOR), AT).completedBy).toBe("Hephaestus");
  });
  it("a closed task keeps claimedBy as history; reopen clears claim and completedBy", () => {
    const done = applyTaskEvent(taskIn("REVIEW"), "complete", facts(heph), AT);
    expect(done.claimedBy).toBe("Hephaestus");
    const again = applyTaskEvent(done, "reopen", facts(DIRECTOR), AT, { id: "n", text: "regression" });
    expect(again).toMatchObject({ status: "TODO", claimedBy: null, completedBy: null, mission: null });
  });
  it("unassign adds a reassign note; reject a review note", () => {
    expect(
      applyTaskEvent(taskIn("UNDERWAY"), "unassign", facts(DIRECTOR), AT, { id: "n", text: "stuck" }).notes[0]!.kind,
    ).toBe("reassign");
    expect(
      applyTaskEvent(taskIn("REVIEW"), "reject", facts(DIRECTOR), AT, { id: "n", text: "no tests" }).notes[0]!.kind,
    ).toBe("review");
  });
  it("a refusal names the state, the actor and a command that would work", () => {
    try {
      applyTaskEvent(taskIn("COMPLETE"), "claim", facts(heph), AT);
      expect.unreachable();
    } catch (e) {
      const err = e as InvalidTransitionError;
      expect(err.message).toBe("Cannot claim ENG-H-0007 as Hephaestus: it is COMPLETE");
      expect(err.hint).toContain('pantheon task reopen ENG-H-0007 --notes "..."');
    }
  });
});

describe("allowedActions", () => {
  it("lists what the actor may do now", () => {
    expect(allowedActions(aTask(), facts(heph))).toEqual([
      "claim",
      "update --status UNDERWAY",
      "update --status BLOCKED",
      "handoff",
      "close --status ABORTED",
    ]);
    expect(
      allowedActions(taskIn("UNDERWAY"), facts(personaActor("Vulcan", aMission({ persona: "Vulcan", number: 4 })))),
    ).toEqual([]);
  });
});
