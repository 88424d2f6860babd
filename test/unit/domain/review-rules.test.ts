import { describe, expect, it } from "vitest";
import { DIRECTOR, personaActor } from "../../../src/domain/actor.js";
import { checkReviewDecision, decideReview, withdrawReview } from "../../../src/domain/review-rules.js";
import { ReviewSchema, type Review } from "../../../src/domain/schemas/review.js";
import { InvalidTransitionError } from "../../../src/errors.js";
import { aMission } from "../../helpers/builders.js";

/** DESIGN §1.4 review rows: a reviewer may not decide their own request unless Director or --force. */

const AT = "2026-01-01T00:00:00.000Z";

function aReview(over: Partial<Review> = {}): Review {
  return ReviewSchema.parse({
    uid: "review-uid-0001",
    number: 1,
    title: "Review ENG-H-0007: Add login",
    type: "task_completion",
    status: "PENDING",
    task: 7,
    requestedBy: "Hephaestus",
    reviewer: null,
    reason: null,
    artifact: null,
    formerNumbers: [],
    createdAt: AT,
    updatedAt: AT,
    createdBy: "Hephaestus",
    ...over,
  });
}

const heph = personaActor("Hephaestus", aMission());
const argus = personaActor(
  "Argus",
  aMission({ uid: "mission-uid-0002", number: 4, persona: "Argus", role: "inspector", codename: "quiet-owl" }),
);
const zeus = personaActor(
  "Zeus",
  aMission({ uid: "mission-uid-0003", number: 5, persona: "Zeus", role: "administrator", codename: "bold-eagle" }),
);

function refusal(f: () => void): InvalidTransitionError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidTransitionError);
    return e as InvalidTransitionError;
  }
  throw new Error("expected a refusal");
}

describe("checkReviewDecision", () => {
  it.each(["approve", "reject"] as const)("lets another persona %s a PENDING review", (verb) => {
    expect(() => checkReviewDecision(aReview(), argus, false, verb)).not.toThrow();
  });

  it.each(["approve", "reject"] as const)(
    "refuses the requester's own %s (exit 1, naming the review), with a hint saying who may decide it and never to force it",
    (verb) => {
      const e = refusal(() => checkReviewDecision(aReview(), heph, false, verb));
      expect(e.exitCode).toBe(1);
      expect(e.code).toBe("E_INVALID_TRANSITION");
      expect(e.message).toContain("RVW-001");
      expect(e.message).toContain("Hephaestus");
      expect(e.hint).not.toMatch(/force/i);
      expect(e.hint).toBe(
        `another persona (an inspector, say) or the Director ${verb === "approve" ? "approves" : "rejects"} it; they find it with: pantheon review list --status pending`,
      );
    },
  );

  it("compares names case-insensitively", () => {
    refusal(() => checkReviewDecision(aReview({ requestedBy: "hephaestus" }), heph, false, "approve"));
  });

  it("lets the requester decide with --force", () => {
    expect(() => checkReviewDecision(aReview(), heph, true, "approve")).not.toThrow();
    expect(() => checkReviewDecision(aReview(), heph, true, "reject")).not.toThrow();
  });

  it("lets the Director decide a review the Director requested", () => {
    expect(() => checkReviewDecision(aReview({ requestedBy: "Director" }), DIRECTOR, false, "approve")).not.toThrow();
    expect(() => checkReviewDecision(aReview({ requestedBy: "Director" }), DIRECTOR, false, "reject")).not.toThrow();
  });

  it("does not treat an administrator as the Director", () => {
    refusal(() => checkReviewDecision(aReview({ requestedBy: "Zeus" }), zeus, false, "approve"));
    expect(() => checkReviewDecision(aReview(), zeus, false, "approve")).not.toThrow();
  });

  it.each(["APPROVED", "REJECTED", "WITHDRAWN"] as const)(
    "refuses to decide a %s review, even for the Director with --force",
    (status) => {
      const review = aReview({ status, reviewer: status === "WITHDRAWN" ? null : "Argus" });
      for (const actor of [argus, heph, DIRECTOR]) {
        for (const force of [false, true]) {
          for (const verb of ["approve", "reject"] as const) {
            const e = refusal(() => checkReviewDecision(review, actor, force, verb));
            expect(e.message).toContain(status);
            expect(e.message).toContain("RVW-001");
          }
        }
      }
    },
  );
});

describe("decideReview and withdrawReview", () => {
  it("records the verdict, the reviewer and the reason, and nothing else", () => {
    const before = aReview();
    const after = decideReview(before, argus, "2026-02-02T00:00:00.000Z", "REJECTED", "no tests");
    expect(after).toEqual({
      ...before,
      status: "REJECTED",
      reviewer: "Argus",
      reason: "no tests",
      updatedAt: "2026-02-02T00:00:00.000Z",
    });
    expect(ReviewSchema.safeParse(after).success).toBe(true);
  });

  it("withdraws with a reason and no reviewer", () => {
    const after = withdrawReview(aReview(), "2026-02-02T00:00:00.000Z", "closed");
    expect(after.status).toBe("WITHDRAWN");
    expect(after.reviewer).toBeNull();
    expect(after.reason).toBe("closed");
  });
});
