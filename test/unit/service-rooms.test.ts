import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSource, parseImports } from "../helpers/architecture-rules.js";
import {
  roomOrder,
  SERVICE_ROOMS,
  SERVICES_TOP,
  serviceRoomOf,
  servicesOutsideRooms,
} from "../helpers/service-rooms.js";

const SRC = join(__dirname, "../../src");
const SERVICES = join(SRC, "services");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const TREE = files(SERVICES).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, "utf8") }));

/** Room → the rooms its files import today, read from the tree. */
function roomEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { file, text } of TREE) {
    const from = serviceRoomOf(file)!;
    for (const { spec } of parseImports(text).refs) {
      if (!spec.startsWith(".")) continue;
      const to = serviceRoomOf(posix.normalize(posix.join(posix.dirname(file), spec)));
      if (to !== null && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

describe("the services' rooms", () => {
  it("hold every service: nothing at the top of src/services beyond its few allowed files, no room without a file", () => {
    expect(SERVICES_TOP.size).toBeLessThanOrEqual(8);
    expect(servicesOutsideRooms(TREE.map((f) => f.file))).toEqual([]);
    expect(new Set(TREE.map((f) => serviceRoomOf(f.file)))).toEqual(new Set(Object.keys(SERVICE_ROOMS)));
  });

  it("import one another in an order without a cycle, kernel at the floor", () => {
    const order = roomOrder(SERVICE_ROOMS);
    expect(order[0]).toBe("kernel");
    expect(SERVICE_ROOMS.kernel).toEqual([]);
    expect(order).toHaveLength(Object.keys(SERVICE_ROOMS).length);
  });

  it("allow exactly the imports between rooms the code makes (a stale line would let a room reach what it never needs)", () => {
    const edges = roomEdges();
    const table = Object.entries(SERVICE_ROOMS).map(([room, to]) => [room, [...to].sort()]);
    expect(table).toEqual(Object.keys(SERVICE_ROOMS).map((room) => [room, [...(edges.get(room) ?? [])].sort()]));
  });
});

describe("the services' room rules catch", () => {
  it("a room importing a room it may not (kernel imports none; sync does not reach work)", () => {
    expect(checkSource("services/kernel/context.ts", 'import { createTask } from "../work/create-task.js";\n')).toEqual(
      [expect.stringContaining("the kernel room imports no other room")],
    );
    expect(
      checkSource("services/sync/publish.ts", 'import type { Task } from "../work/transition-task.js";\n'),
    ).toEqual([expect.stringContaining("the sync room imports only these rooms: kernel (")]);
    // The same edges the table allows pass.
    expect(
      checkSource(
        "services/views/dashboard.ts",
        'import { findEpic } from "../work/epics.js";\nimport { findTask } from "../kernel/find-task.js";\nimport { x } from "./read-log.js";\n',
      ),
    ).toEqual([]);
  });

  it("a room importing a file at the top of src/services (where no service sits)", () => {
    expect(checkSource("services/work/epics.ts", 'import { all } from "../index.js";\n')).toEqual([
      expect.stringContaining("the work room imports only these rooms"),
    ]);
  });

  it("a service outside the rooms: at the top, or in a folder that is not a room", () => {
    expect(servicesOutsideRooms(["services/kernel/context.ts", "services/index.ts"])).toEqual([
      expect.stringContaining("services/index.ts: sits at the top of src/services"),
    ]);
    expect(checkSource("services/misc/helper.ts", "export const x = 1;\n")).toEqual([
      expect.stringContaining("not one of the services' rooms"),
    ]);
  });

  it("an edge that closes a loop between rooms, whatever its length", () => {
    expect(() => roomOrder({ ...SERVICE_ROOMS, kernel: ["views"] })).toThrow(/cycle: .*kernel → views → .*kernel/);
    expect(() => roomOrder({ a: ["b"], b: ["a"] })).toThrow(/cycle: a → b → a/);
    expect(() => roomOrder({ a: ["nowhere"] })).toThrow(/not a room/);
  });
});
