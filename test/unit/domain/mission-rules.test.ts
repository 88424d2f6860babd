import { describe, expect, it } from "vitest";
import { DIRECTOR, IDENTIFY_HINT, personaActor, UNIDENTIFIED, type Actor } from "../../../src/domain/actor.js";
import { checkMissionEnd } from "../../../src/domain/mission-rules.js";
import { InvalidTransitionError } from "../../../src/errors.js";
import { aMission } from "../../helpers/builders.js";

/** DESIGN §1.5a: who may end Hephaestus's ACTIVE mission MSN-0003. */
const mine = aMission({ uid: "msn-heph-0003", number: 3, persona: "Hephaestus", role: "engineer" });
const other = (
  persona: string,
  role: "engineer" | "administrator",
  over: Partial<Parameters<typeof aMission>[0]> = {},
) => personaActor(persona, aMission({ uid: `msn-${persona}-uid`, number: 9, persona, role, ...over }));

const CASES: Array<[string, Actor, boolean]> = [
  ["the Director", DIRECTOR, true],
  ["its persona acting under it", personaActor("Hephaestus", mine), true],
  ["an administrator on an ACTIVE mission", other("Zeus", "administrator"), true],
  [
    "an administrator whose mission ENDED",
    other("Cronus", "administrator", { status: "ENDED", endedAt: "2026-01-02T00:00:00.000Z" }),
    false,
  ],
  ["another persona", other("Daedalus", "engineer"), false],
  ["its persona's name under another mission", other("Hephaestus", "engineer"), false],
  ["a persona without a mission", personaActor("Nobody", null), false],
  ["an unidentified persona", UNIDENTIFIED, false],
];

describe("checkMissionEnd", () => {
  it.each(CASES)("%s: allowed %s", (_who, actor, allowed) => {
    const run = () => checkMissionEnd(mine, actor);
    if (allowed) expect(run).not.toThrow();
    else expect(run).toThrow(InvalidTransitionError);
  });

  it("names the mission, its persona and the actor; an unidentified persona is told how to identify", () => {
    expect(() => checkMissionEnd(mine, other("Daedalus", "engineer"))).toThrow(
      "Cannot end MSN-0003 (Hephaestus) as Daedalus: only Hephaestus acting under it, an administrator or the Director may end it",
    );
    try {
      checkMissionEnd(mine, UNIDENTIFIED);
    } catch (e) {
      expect((e as InvalidTransitionError).hint).toBe(IDENTIFY_HINT);
    }
  });

  it("an ENDED mission is not this rule's business (ending it again is refused for everyone)", () => {
    expect(() => checkMissionEnd({ ...mine, status: "ENDED" }, UNIDENTIFIED)).not.toThrow();
  });
});
