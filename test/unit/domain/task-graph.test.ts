import { describe, expect, it } from "vitest";
import { taskGraph } from "../../../src/domain/task-graph.js";
import type { Task } from "../../../src/domain/schemas/task.js";
import { aTask } from "../../helpers/builders.js";

const map = (tasks: Task[]) => new Map(tasks.map((t) => [t.number, t]));

describe("taskGraph", () => {
  // 1 ← 2 ← 3 (3 depends on 2 depends on 1); 4 depends on 1 (complete); 5 alone in epic 9.
  const tasks = map([
    aTask({ number: 1, status: "UNDERWAY" }),
    aTask({ number: 2, dependencies: [1], epic: 9 }),
    aTask({ number: 3, dependencies: [2], epic: 9 }),
    aTask({ number: 4, dependencies: [6] }),
    aTask({ number: 5, epic: 9 }),
    aTask({ number: 6, status: "COMPLETE" }),
  ]);

  it("blocked: every blocked open task and what blocks it, blocking edges marked", () => {
    const g = taskGraph(tasks, { kind: "blocked" }, 100);
    expect(g.nodes.map((t) => t.number).sort()).toEqual([1, 2, 3]);
    expect(g.edges).toEqual(
      expect.arrayContaining([
        { from: 2, to: 1, blocking: true },
        { from: 3, to: 2, blocking: true },
      ]),
    );
    expect(g.omitted).toBe(0);
  });

  it("epic: its tasks and the dependencies they reach outside it", () => {
    const g = taskGraph(tasks, { kind: "epic", epic: 9 }, 100);
    expect(g.nodes.map((t) => t.number)).toEqual([2, 3, 5, 1]);
  });

  it("task: what it depends on and what depends on it, transitively", () => {
    expect(
      taskGraph(tasks, { kind: "task", task: 2 }, 100)
        .nodes.map((t) => t.number)
        .sort(),
    ).toEqual([1, 2, 3]);
    const g = taskGraph(tasks, { kind: "task", task: 4 }, 100);
    expect(g.edges).toEqual([{ from: 4, to: 6, blocking: false }]);
  });

  it("stops at the cap and says how many it left out", () => {
    const chain = map(
      Array.from({ length: 1000 }, (_, i) => aTask({ number: i + 1, dependencies: i === 0 ? [] : [i] })),
    );
    const g = taskGraph(chain, { kind: "task", task: 500 }, 40);
    expect(g.nodes).toHaveLength(40);
    expect(g.total).toBe(1000);
    expect(g.omitted).toBe(960);
    expect(g.nodes[0]!.number).toBe(500);
  });
});
