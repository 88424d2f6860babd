import { describe, expect, it } from "vitest";
import { TaskIndex } from "../../../src/domain/task-index.js";
import { aTaskSummary } from "../../helpers/builders.js";

const t = (number: number, title = `t${number}`) => aTaskSummary({ number, title });

describe("TaskIndex", () => {
  for (const [what, numbers] of [
    ["dense numbers", [1, 2, 3, 5, 8]],
    ["sparse numbers", [1, 70_000, 900_000]],
  ] as const) {
    it(`answers like a Map by number, with tasks set later on top (${what})`, () => {
      const list = numbers.map((n) => t(n));
      const index = new TaskIndex(list);
      const map = new Map(list.map((x) => [x.number, x]));
      for (const n of [0, -1, 1.5, 4, ...numbers, numbers.at(-1)! + 1, 2 ** 40]) {
        expect(index.get(n)).toBe(map.get(n));
        expect(index.has(n)).toBe(map.has(n));
      }
      expect(index.size).toBe(list.length);
      expect([...index.values()]).toEqual(list);
      index.set(4, t(4)).set(numbers[1]!, t(numbers[1]!, "replaced"));
      expect(index.get(4)!.title).toBe("t4");
      expect(index.get(numbers[1]!)!.title).toBe("replaced");
      expect(index.size).toBe(list.length + 1);
      expect([...index.values()].map((x) => x.number)).toEqual([...new Set([...numbers, 4])].sort((a, b) => a - b));
    });
  }
});
