import { describe, expect, it } from "vitest";
import { sameName } from "../../../src/domain/actor.js";

describe("sameName", () => {
  it("ignores case, never accents, for ASCII and other names alike", () => {
    expect(sameName("Hephaestus", "hephaestus")).toBe(true);
    expect(sameName("Hephaestus", "Hephaistos")).toBe(false);
    expect(sameName("Ünïcode", "üNÏCODE")).toBe(true);
    expect(sameName("Aña", "Ana")).toBe(false);
    expect(sameName("Ana", "Aña")).toBe(false);
    expect(sameName(null, "Ana")).toBe(false);
    expect(sameName("Ana", undefined)).toBe(false);
  });
});
