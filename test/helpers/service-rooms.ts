/**
 * The services' rooms (docs/architecture.md): each folder of src/services changes for one reason,
 * and imports only the rooms this table names. The table is the imports as they are, not a
 * wish: a new edge between rooms is a line here, and the acyclicity test refuses one that closes
 * a loop (test/unit/service-rooms.test.ts, which also shows each rule catching its violation).
 */

/** Room → the other rooms its files may import. Kernel is the floor: it imports no room. */
export const SERVICE_ROOMS: Readonly<Record<string, readonly string[]>> = {
  kernel: [],
  sync: ["kernel"],
  project: ["kernel", "sync"],
  worktrees: ["kernel"],
  live: ["kernel"],
  work: ["kernel", "sync", "project"],
  missions: ["kernel", "sync", "project", "worktrees", "live"],
  summon: ["kernel", "project", "worktrees", "live", "work", "missions"],
  doctor: ["kernel", "sync", "project", "live", "summon"],
  views: ["kernel", "project", "live", "work", "missions"],
};

/** Files allowed at the top of src/services (at most 8): none, so every service has a room and there is no barrel. */
export const SERVICES_TOP: ReadonlySet<string> = new Set<string>();

/** The room of a path under src/ inside services/ ("services/sync/publish.ts" → "sync"), "top" for a file at its top. */
export function serviceRoomOf(rel: string): string | null {
  const parts = rel.split("/");
  if (parts[0] !== "services") return null;
  return parts.length > 2 ? parts[1]! : "top";
}

/** The rooms in an order where each comes after every room it imports; throws on a cycle. */
export function roomOrder(rooms: Readonly<Record<string, readonly string[]>>): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (room: string, path: string[]): void => {
    if (state.get(room) === "done") return;
    if (state.get(room) === "visiting")
      throw new Error(`the service rooms import in a cycle: ${[...path, room].join(" → ")}`);
    if (!(room in rooms)) throw new Error(`${path.at(-1)} may import ${room}, which is not a room`);
    state.set(room, "visiting");
    for (const next of rooms[room]!) visit(next, [...path, room]);
    state.set(room, "done");
    order.push(room);
  };
  for (const room of Object.keys(rooms)) visit(room, []);
  return order;
}

/** Every room rule a file under src/ breaks, given its relative imports resolved to paths under src/. */
export function checkServiceRooms(rel: string, imports: ReadonlyArray<{ spec: string; resolved: string }>): string[] {
  const from = serviceRoomOf(rel);
  if (from === null) return [];
  // A file at the top is judged over the tree (servicesOutsideRooms), not here, so the other
  // layer rules' synthetic cases (test/unit/architecture-rules.test.ts) may name one.
  if (from === "top") return [];
  const allowed = SERVICE_ROOMS[from];
  if (allowed === undefined)
    return [
      `${rel}: is in services/${from}/, which is not one of the services' rooms (${Object.keys(SERVICE_ROOMS).join(", ")})`,
    ];
  const out: string[] = [];
  for (const { spec, resolved } of imports) {
    const to = serviceRoomOf(resolved);
    if (to === null || to === from) continue;
    if (to === "top" ? !SERVICES_TOP.has(resolved.replace(/\.js$/, ".ts")) : !allowed.includes(to))
      out.push(
        `${rel}: imports ${spec}; the ${from} room imports ${allowed.length > 0 ? `only these rooms: ${allowed.join(", ")}` : "no other room"} (test/helpers/service-rooms.ts)`,
      );
  }
  return out;
}

/** The files under src/ (paths relative to it) that sit at the top of src/services without leave. */
export function servicesOutsideRooms(files: readonly string[]): string[] {
  const top = files.filter((f) => serviceRoomOf(f) === "top" && !SERVICES_TOP.has(f));
  return top.map((f) => `${f}: sits at the top of src/services; every service belongs to a room`);
}
