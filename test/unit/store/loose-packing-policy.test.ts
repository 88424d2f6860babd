import { describe, expect, it } from "vitest";
import { looseThreshold, parseGcAuto } from "../../../src/store/git/pack-threshold.js";
import { chooseRollup } from "../../../src/store/git/rollup-choice.js";

describe("when Pantheon packs its loose objects: half of what git's auto gc tolerates in objects/17", () => {
  it.each([
    [undefined, 13], // git's default gc.auto 6700: git runs past 27 in objects/17
    ["6700", 13],
    ["0", 13], // auto gc off: packed anyway, for the size of .git
    ["-1", 13],
    ["1000", 2], // git runs past 4
    ["256", 0], // git runs past 1: pack as soon as one is there
    ["1", 0],
    ["20k", 40], // 20,480: git runs past 80
    ["1m", 2048],
    ["lots", 13], // git refuses the value; its default stands here
  ])("gc.auto %s → more than %i in objects/pantheon/17", (gcAuto, perDir) => {
    expect(looseThreshold({}, gcAuto)).toEqual({ kind: "sample", perDir });
  });

  it("PANTHEON_PACK_LOOSE counts the loose objects one by one (tests and soak runs with few objects)", () => {
    expect(looseThreshold({ PANTHEON_PACK_LOOSE: "40" }, "256")).toEqual({ kind: "exact", objects: 40 });
    expect(looseThreshold({ PANTHEON_PACK_LOOSE: "0" }, undefined)).toEqual({ kind: "exact", objects: 0 });
    // Anything but a plain count is ignored, never trusted.
    for (const bad of ["-1", "1e3", "40 objects", "", "99999999999"])
      expect(looseThreshold({ PANTHEON_PACK_LOOSE: bad }, undefined)).toEqual({ kind: "sample", perDir: 13 });
  });

  it("reads gc.auto as git does (k, m, g; anything else is not a number)", () => {
    expect([parseGcAuto("6700"), parseGcAuto(" 2K "), parseGcAuto("1g"), parseGcAuto("-5")]).toEqual([
      6700,
      2048,
      1024 ** 3,
      -5,
    ]);
    expect([parseGcAuto("x"), parseGcAuto("1.5"), parseGcAuto(undefined)]).toEqual([null, null, null]);
  });
});

describe("which kept packs a new pack rolls up (geometric, factor 2, capped)", () => {
  const packs = (...counts: number[]) => counts.map((count, i) => ({ name: `p${i}`, count }));
  const names = (chosen: { name: string }[]) => chosen.map((p) => p.name);

  it("absorbs the smallest while each is under twice what is gathered", () => {
    expect(names(chooseRollup(packs(3000), 3000, 50_000))).toEqual(["p0"]);
    expect(names(chooseRollup(packs(6000), 3000, 50_000))).toEqual([]);
    expect(names(chooseRollup(packs(12_000, 3000, 6000), 3000, 50_000))).toEqual(["p1", "p2", "p0"]);
    expect(names(chooseRollup(packs(24_000, 3000), 3000, 50_000))).toEqual(["p1"]);
  });

  it("never gathers more than the cap", () => {
    expect(names(chooseRollup(packs(3000, 6000, 12_000, 24_000), 3000, 20_000))).toEqual(["p0", "p1"]);
    expect(chooseRollup(packs(10), 60_000, 50_000)).toEqual([]);
  });

  it("keeps the number of packs logarithmic as packs are added one by one", () => {
    let kept: { name: string; count: number }[] = [];
    for (let i = 0; i < 1000; i++) {
      const rolled = new Set(names(chooseRollup(kept, 3000, 1_000_000)));
      const gathered = 3000 + kept.filter((p) => rolled.has(p.name)).reduce((n, p) => n + p.count, 0);
      kept = [...kept.filter((p) => !rolled.has(p.name)), { name: `n${i}`, count: gathered }];
      expect(kept.length).toBeLessThanOrEqual(Math.ceil(Math.log2(i + 2)) + 1);
    }
  });
});
