import type { Store } from "../../store/store.js";
import type { KeptDecisions } from "../../domain/sync-decisions.js";

/**
 * Notices kept in this clone until shown (DESIGN §3.2): what a landed merge decided. A kept
 * file is this clone's own, but it is read defensively (any JSON): every field is checked and
 * anything else is dropped, and its text is escaped wherever it is printed (it holds ids and
 * persona names from the remote's records).
 */
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const objects = (v: unknown): Array<Record<string, unknown>> =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object") : [];
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export function parseKept(value: unknown): KeptDecisions | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const kinds = new Set(["tasks", "epics", "missions", "reviews"]);
  return {
    remote: str(v.remote),
    at: str(v.at),
    commit: str(v.commit),
    renumbered: objects(v.renumbered)
      .filter((r) => kinds.has(str(r.kind)))
      .map((r) => ({ kind: str(r.kind) as "tasks", from: str(r.from), to: str(r.to) })),
    droppedClaims: objects(v.droppedClaims).map((d) => ({
      task: str(d.task),
      yours: str(d.yours),
      winner: typeof d.winner === "string" ? d.winner : null,
      message: str(d.message),
    })),
    conflicts: objects(v.conflicts).map((c) => ({
      record: str(c.record),
      fields: strings(c.fields),
      // A notice of an earlier version has neither: its conflicts were all tasks', noted on the task.
      notedIn: c.notedIn === undefined ? str(c.record) : typeof c.notedIn === "string" ? c.notedIn : null,
      ...(typeof c.yours === "string" && { yours: c.yours }),
    })),
    cycles: (Array.isArray(v.cycles) ? v.cycles : []).map(strings).filter((c) => c.length > 0),
    planning: objects(v.planning).map((p) => ({
      from: str(p.from),
      to: str(p.to),
      renamed: p.renamed === true,
      note: str(p.note),
    })),
  };
}

/**
 * Takes every kept notice: those not in `own` (kept by the command now showing its own report)
 * are returned; all are dropped, since the caller shows them now.
 */
export async function takeNotices(store: Store, own: readonly string[] = []): Promise<{ earlier: KeptDecisions[] }> {
  const all = await store.notices();
  if (all.length === 0) return { earlier: [] };
  const earlier = all
    .filter((n) => !own.includes(n.id))
    .map((n) => parseKept(n.value))
    .filter((n): n is KeptDecisions => n !== null);
  await store.dropNotices(all.map((n) => n.id));
  return { earlier };
}
