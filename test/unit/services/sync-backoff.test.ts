import { describe, expect, it } from "vitest";
import { SYNC_PATIENCE_MS, syncBackoffMs } from "../../../src/services/sync/sync-state.js";

/** The backoff of a sync whose push lost to another clone (DESIGN §3.2, issue 14). */
describe("syncBackoffMs", () => {
  const top = () => 0.999999;
  const bottom = () => 0;

  it("is jittered between 10 ms and a ceiling that grows with the attempts up to 2 s", () => {
    expect(syncBackoffMs(1, bottom)).toBe(10);
    expect(syncBackoffMs(1, top)).toBeLessThan(110);
    expect(syncBackoffMs(3, top)).toBeGreaterThan(syncBackoffMs(1, top));
    expect(syncBackoffMs(20, top)).toBe(10 + 1_999);
    expect(syncBackoffMs(20, () => 0.5)).toBe(1_010);
  });

  it("lets a sync that has waited its patience retry almost at once, so newer syncs cannot starve it", () => {
    expect(syncBackoffMs(20, top, SYNC_PATIENCE_MS - 1)).toBe(2_009);
    expect(syncBackoffMs(20, top, SYNC_PATIENCE_MS)).toBeLessThanOrEqual(110);
    expect(syncBackoffMs(2, top, 45_000)).toBeLessThanOrEqual(110);
  });
});
