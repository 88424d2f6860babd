/**
 * Property tests of the sync merge (DESIGN §3.3, §3.4; issue 5 "Tests"): `mergeState` over random
 * histories of valid edits made on two sides of a common base.
 *
 * The model below plays the commands of DESIGN §1.4 on an in-memory state (every record is built
 * through its zod schema), builds the `MergeInput` exactly as `src/store/sync/state-merge.ts` does
 * (touched = the numbers whose record differs between base and local, with `remoteChanged` when
 * the remote's record at that number differs from the base's), applies the output over the
 * remote state the way the store does, and checks the result.
 *
 * Both sides allocate numbers from the same counters, so collisions (same number, different uid)
 * happen in most cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Tests are deterministic: a fixed seed (set FC_SEED to explore others locally).
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
import { mergeState, type MergeInput, type MergeOutput, type Touched } from "../../../src/domain/merge/merge-state.js";
import { missionViolations, reviewViolations, taskViolations } from "../../../src/domain/record-invariants.js";
import { PRIORITIES } from "../../../src/domain/priority.js";
import { TASK_ROLES } from "../../../src/domain/roles.js";
import type { Counters } from "../../../src/domain/schemas/counters.js";
import { EpicSchema, type Epic } from "../../../src/domain/schemas/epic.js";
import { MissionSchema, type Mission } from "../../../src/domain/schemas/mission.js";
import { ReviewSchema, type Review } from "../../../src/domain/schemas/review.js";
import { TaskSchema, type Task } from "../../../src/domain/schemas/task.js";
import type { Note } from "../../../src/domain/schemas/note.js";

const RUNS = 200;

// ---------------------------------------------------------------------------------------------
// The model: a state is four maps number → record, plus the counters.

type Kind = "tasks" | "epics" | "missions" | "reviews";
const KINDS: readonly Kind[] = ["tasks", "epics", "missions", "reviews"];
interface Recs {
  tasks: Task;
  epics: Epic;
  missions: Mission;
  reviews: Review;
}
type AnyRec = Recs[Kind];
type State = { [K in Kind]: ReadonlyMap<number, Recs[K]> } & { counters: Counters };

const SCHEMAS = { tasks: TaskSchema, epics: EpicSchema, missions: MissionSchema, reviews: ReviewSchema } as const;
const VIOLATIONS: { [K in Kind]: (r: Recs[K]) => string[] } = {
  tasks: taskViolations,
  epics: () => [],
  missions: missionViolations,
  reviews: reviewViolations,
};

const EMPTY: State = {
  tasks: new Map(),
  epics: new Map(),
  missions: new Map(),
  reviews: new Map(),
  counters: { tasks: 0, epics: 0, missions: 0, reviews: 0 },
};

/** Sorted-key JSON: what the store compares (canonical blobs), independent of key order. */
function canon(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x && typeof x === "object"
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
          )
        : x;
  return JSON.stringify(sort(v ?? null));
}

/** Plain, comparable form of a state (maps as number-sorted entry lists). */
function plain(s: State): unknown {
  const out: Record<string, unknown> = { counters: s.counters };
  for (const k of KINDS)
    out[k] = [...s[k].entries()].sort((a, b) => a[0] - b[0]).map(([n, r]) => [n, JSON.parse(canon(r))]);
  return out;
}

function list<K extends Kind>(s: State, k: K): Recs[K][] {
  return [...(s[k] as ReadonlyMap<number, Recs[K]>).values()].sort((a, b) => a.number - b.number);
}

function put<K extends Kind>(s: State, k: K, rec: Recs[K]): State {
  const m = new Map(s[k] as Map<number, Recs[K]>);
  m.set(rec.number, SCHEMAS[k].parse(rec) as Recs[K]);
  return { ...s, [k]: m };
}

function uidAt(s: State, k: Kind, n: number | null): string | null {
  return n === null ? null : (s[k].get(n)?.uid ?? `missing:${k}/${n}`);
}

function byUid<K extends Kind>(s: State, k: K): Map<string, Recs[K]> {
  return new Map(list(s, k).map((r) => [r.uid, r]));
}

// ---------------------------------------------------------------------------------------------
// Edits: each is a command of DESIGN §1.4 with its guard; one that does not apply is a no-op.

interface Gen {
  /** letters only: it is part of codenames */
  side: string;
  clock: number;
  seq: number;
  created: Set<string>;
}

const T0 = Date.parse("2026-03-01T00:00:00.000Z");
const iso = (clock: number) => new Date(T0 + clock * 1000).toISOString();
function tick(g: Gen): string {
  g.clock += 1;
  return iso(g.clock);
}
function newUid(g: Gen, k: Kind, n: number): string {
  g.seq += 1;
  const uid = `${g.side}-${k}-${n}-${g.seq}`;
  g.created.add(uid);
  return uid;
}
function letters(n: number): string {
  return String(n).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
}
function note(g: Gen, at: string, kind: Note["kind"], text: string, by = "Director"): Note {
  g.seq += 1;
  return { id: `${g.side}-note-${g.seq}`, at, by, kind, text };
}

const pick = <T>(xs: readonly T[], i: number): T | undefined => (xs.length === 0 ? undefined : xs[i % xs.length]);
const TITLES = ["Add login", "Fix the build", "Write the docs", "Refactor the store", "Ship it"];
const PERSONAS = ["Hephaestus", "Ptah", "Athena", "Daedalus"];

type Edit = (s: State, g: Gen, a: number, b: number) => State;

function editTask(s: State, g: Gen, t: Task, change: (t: Task, at: string) => Partial<Task>): State {
  const at = tick(g);
  return put(s, "tasks", { ...t, ...change(t, at), updatedAt: at });
}

/** True when `from` reaches `to` along dependencies (so to → from would close a cycle). */
function reaches(s: State, from: number, to: number): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length) {
    const n = stack.pop()!;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...(s.tasks.get(n)?.dependencies ?? []));
  }
  return false;
}

const withStatus = (s: State, ...st: Task["status"][]) => list(s, "tasks").filter((t) => st.includes(t.status));

const createTask: Edit = (s, g, a, b) => {
  const number = s.counters.tasks + 1;
  const tasks = list(s, "tasks");
  const deps =
    a % 3 === 0
      ? []
      : [
          ...new Set(
            [pick(tasks, a), b % 2 ? pick(tasks, b) : undefined].filter((t): t is Task => !!t).map((t) => t.number),
          ),
        ];
  const epic = b % 4 === 0 ? (pick(list(s, "epics"), a)?.number ?? null) : null;
  const at = tick(g);
  const task = TaskSchema.parse({
    uid: newUid(g, "tasks", number),
    number,
    title: `${TITLES[a % TITLES.length]} (${g.side})`,
    description: "",
    role: TASK_ROLES[a % TASK_ROLES.length],
    priority: PRIORITIES[b % PRIORITIES.length],
    status: "TODO",
    dependencies: deps,
    epic,
    claimedBy: null,
    mission: null,
    completedBy: null,
    notes: [],
    formerNumbers: [],
    createdAt: at,
    updatedAt: at,
    createdBy: "Director",
  });
  return { ...put(s, "tasks", task), counters: { ...s.counters, tasks: number } };
};

const startMission: Edit = (s, g, a, b) => {
  const number = s.counters.missions + 1;
  const at = tick(g);
  const persona = PERSONAS[a % PERSONAS.length]!;
  const m = MissionSchema.parse({
    uid: newUid(g, "missions", number),
    number,
    codename: `${g.side}-${letters(number)}`,
    persona,
    role: TASK_ROLES[b % TASK_ROLES.length],
    objective: "",
    status: "ACTIVE",
    startedAt: at,
    endedAt: null,
    assistant: null,
    worktree: null,
    headAtStart: null,
    headAtEnd: null,
    summary: null,
    formerNumbers: [],
    createdAt: at,
    updatedAt: at,
    createdBy: persona,
  });
  return { ...put(s, "missions", m), counters: { ...s.counters, missions: number } };
};

const endMission: Edit = (s, g, a) => {
  const m = pick(
    list(s, "missions").filter((x) => x.status === "ACTIVE"),
    a,
  );
  if (!m) return s;
  const at = tick(g);
  return put(s, "missions", { ...m, status: "ENDED", endedAt: at, summary: `ended on ${g.side}`, updatedAt: at });
};

const editObjective: Edit = (s, g, a, b) => {
  const m = pick(list(s, "missions"), a);
  if (!m) return s;
  const at = tick(g);
  return put(s, "missions", { ...m, objective: `objective ${b} from ${g.side}`, updatedAt: at });
};

const claim: Edit = (s, g, a, b) => {
  const t = pick(withStatus(s, "TODO", "READY"), a);
  const m = pick(
    list(s, "missions").filter((x) => x.status === "ACTIVE"),
    b,
  );
  if (!t || !m) return s;
  return editTask(s, g, t, () => ({ status: "UNDERWAY", claimedBy: m.persona, mission: m.number }));
};

const toReview: Edit = (s, g, a, b) => {
  const t = pick(withStatus(s, "UNDERWAY"), a);
  if (!t) return s;
  let next = editTask(s, g, t, () => ({ status: "REVIEW" }));
  if (b % 2 === 0) {
    const number = s.counters.reviews + 1;
    const at = tick(g);
    const r = ReviewSchema.parse({
      uid: newUid(g, "reviews", number),
      number,
      title: `Review of ${t.title}`,
      type: "task_completion",
      status: "PENDING",
      task: t.number,
      requestedBy: t.claimedBy,
      reviewer: null,
      reason: null,
      artifact: null,
      formerNumbers: [],
      createdAt: at,
      updatedAt: at,
      createdBy: t.claimedBy!,
    });
    next = { ...put(next, "reviews", r), counters: { ...next.counters, reviews: number } };
  }
  return next;
};

const complete: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "REVIEW", "UNDERWAY"), a);
  return t ? editTask(s, g, t, (x) => ({ status: "COMPLETE", completedBy: x.claimedBy })) : s;
};

const block: Edit = (s, g, a, b) => {
  const t = pick(withStatus(s, "TODO", "READY", "UNDERWAY", "REVIEW"), a);
  if (!t) return s;
  return editTask(s, g, t, (x, at) => ({
    status: "BLOCKED",
    notes: [...x.notes, note(g, at, "note", `blocked ${b}`)],
  }));
};

const unblock: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "BLOCKED"), a);
  if (!t) return s;
  return editTask(s, g, t, (x) => ({ status: x.claimedBy === null ? "TODO" : "UNDERWAY" }));
};

const handoff: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "TODO", "BLOCKED", "UNDERWAY"), a);
  if (!t) return s;
  return editTask(s, g, t, (x, at) => ({
    status: "READY",
    claimedBy: null,
    mission: null,
    notes: [...x.notes, note(g, at, "handoff", "over to you")],
  }));
};

const unassign: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "UNDERWAY", "REVIEW", "BLOCKED", "READY"), a);
  if (!t) return s;
  return editTask(s, g, t, (x, at) => ({
    status: "TODO",
    claimedBy: null,
    mission: null,
    notes: [...x.notes, note(g, at, "reassign", "reassigned")],
  }));
};

const abort: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED"), a);
  if (!t) return s;
  return editTask(s, g, t, (x, at) => ({ status: "ABORTED", notes: [...x.notes, note(g, at, "note", "not needed")] }));
};

const reopen: Edit = (s, g, a) => {
  const t = pick(withStatus(s, "COMPLETE", "ABORTED"), a);
  if (!t) return s;
  return editTask(s, g, t, (x, at) => ({
    status: "TODO",
    claimedBy: null,
    mission: null,
    completedBy: null,
    notes: [...x.notes, note(g, at, "note", "again")],
  }));
};

const editTitle: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  return t ? editTask(s, g, t, () => ({ title: `${TITLES[b % TITLES.length]} v${b} (${g.side})` })) : s;
};

const editDescription: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  return t ? editTask(s, g, t, () => ({ description: `described on ${g.side} (${b})` })) : s;
};

const editPriority: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  return t ? editTask(s, g, t, () => ({ priority: PRIORITIES[b % PRIORITIES.length]! })) : s;
};

const editRole: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  return t ? editTask(s, g, t, () => ({ role: TASK_ROLES[b % TASK_ROLES.length]! })) : s;
};

const addNote: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  return t
    ? editTask(s, g, t, (x, at) => ({ notes: [...x.notes, note(g, at, "note", `note ${b} from ${g.side}`)] }))
    : s;
};

const depend: Edit = (s, g, a, b) => {
  const tasks = list(s, "tasks");
  const t = pick(tasks, a);
  const d = pick(tasks, b);
  if (!t || !d || t.number === d.number || t.dependencies.includes(d.number) || reaches(s, d.number, t.number))
    return s;
  return editTask(s, g, t, (x) => ({ dependencies: [...x.dependencies, d.number] }));
};

const undepend: Edit = (s, g, a, b) => {
  const t = pick(
    list(s, "tasks").filter((x) => x.dependencies.length > 0),
    a,
  );
  if (!t) return s;
  const gone = t.dependencies[b % t.dependencies.length];
  return editTask(s, g, t, (x) => ({ dependencies: x.dependencies.filter((n) => n !== gone) }));
};

const createEpic: Edit = (s, g, a, b) => {
  const number = s.counters.epics + 1;
  const at = tick(g);
  const e = EpicSchema.parse({
    uid: newUid(g, "epics", number),
    number,
    title: `Epic ${TITLES[a % TITLES.length]} (${g.side})`,
    description: "",
    priority: PRIORITIES[b % PRIORITIES.length],
    aborted: null,
    formerNumbers: [],
    createdAt: at,
    updatedAt: at,
    createdBy: "Director",
  });
  return { ...put(s, "epics", e), counters: { ...s.counters, epics: number } };
};

const editEpic: Edit = (s, g, a, b) => {
  const e = pick(list(s, "epics"), a);
  if (!e) return s;
  const at = tick(g);
  const change: Partial<Epic> =
    b % 3 === 0
      ? { aborted: `dropped on ${g.side}` }
      : b % 3 === 1
        ? { priority: PRIORITIES[b % PRIORITIES.length]! }
        : { title: `Epic v${b} (${g.side})` };
  return put(s, "epics", { ...e, ...change, updatedAt: at });
};

const linkEpic: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  const e = pick(list(s, "epics"), b);
  if (!t) return s;
  return editTask(s, g, t, () => ({ epic: b % 5 === 0 || !e ? null : e.number }));
};

const createReview: Edit = (s, g, a, b) => {
  const number = s.counters.reviews + 1;
  const at = tick(g);
  const task = b % 2 === 0 ? (pick(list(s, "tasks"), a)?.number ?? null) : null;
  const r = ReviewSchema.parse({
    uid: newUid(g, "reviews", number),
    number,
    title: `Design review ${a} (${g.side})`,
    type: b % 3 === 0 ? "design" : "general",
    status: "PENDING",
    task,
    requestedBy: PERSONAS[a % PERSONAS.length],
    reviewer: null,
    reason: null,
    artifact: null,
    formerNumbers: [],
    createdAt: at,
    updatedAt: at,
    createdBy: "Director",
  });
  return { ...put(s, "reviews", r), counters: { ...s.counters, reviews: number } };
};

const decideReview: Edit = (s, g, a, b) => {
  const r = pick(
    list(s, "reviews").filter((x) => x.status === "PENDING"),
    a,
  );
  if (!r) return s;
  const at = tick(g);
  const change: Partial<Review> =
    b % 3 === 0
      ? { status: "APPROVED", reviewer: PERSONAS[b % PERSONAS.length]!, reason: null }
      : b % 3 === 1
        ? { status: "REJECTED", reviewer: "Director", reason: `no (${g.side})` }
        : { status: "WITHDRAWN" };
  return put(s, "reviews", { ...r, ...change, updatedAt: at });
};

// Labels and acceptance criteria (task label/unlabel/ac/check/uncheck): few label words, so both
// sides add and remove the same ones; up to 24, so a merge can pass the limit of 20.
const LABELS = Array.from({ length: 24 }, (_, i) => `l${i}`);

const label: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  if (!t) return s;
  const add = [LABELS[b % LABELS.length]!, LABELS[(b * 7) % LABELS.length]!];
  const labels = [...new Set([...t.labels, ...add])].sort();
  return labels.length > 20 || labels.length === t.labels.length ? s : editTask(s, g, t, () => ({ labels }));
};

const unlabel: Edit = (s, g, a, b) => {
  const t = pick(
    list(s, "tasks").filter((x) => x.labels.length > 0),
    a,
  );
  if (!t) return s;
  const gone = t.labels[b % t.labels.length];
  return editTask(s, g, t, (x) => ({ labels: x.labels.filter((l) => l !== gone) }));
};

const addCriterion: Edit = (s, g, a, b) => {
  const t = pick(list(s, "tasks"), a);
  if (!t || t.acceptance.length >= 50) return s;
  g.seq += 1;
  const id = `${g.side}-ac-${g.seq}`;
  return editTask(s, g, t, (x, at) => ({
    acceptance: [...x.acceptance, { id, text: `criterion ${b} (${g.side})`, done: false, by: "Director", at }],
  }));
};

const toggleCriterion: Edit = (s, g, a, b) => {
  const t = pick(
    list(s, "tasks").filter((x) => x.acceptance.length > 0),
    a,
  );
  if (!t) return s;
  const i = b % t.acceptance.length;
  return editTask(s, g, t, (x, at) => ({
    acceptance: x.acceptance.map((c, k) =>
      k === i ? { ...c, done: !c.done, by: PERSONAS[b % PERSONAS.length]!, at } : c,
    ),
  }));
};

const rewordCriterion: Edit = (s, g, a, b) => {
  const t = pick(
    list(s, "tasks").filter((x) => x.acceptance.length > 0),
    a,
  );
  if (!t) return s;
  const i = b % t.acceptance.length;
  return editTask(s, g, t, (x, at) => ({
    acceptance: x.acceptance.map((c, k) => (k === i ? { ...c, text: `reworded ${b} (${g.side})`, at } : c)),
  }));
};

/** Creations appear several times so that both sides allocate numbers often (collisions). */
const EDITS: readonly Edit[] = [
  createTask,
  createTask,
  createTask,
  startMission,
  startMission,
  createReview,
  createEpic,
  claim,
  claim,
  toReview,
  complete,
  block,
  unblock,
  handoff,
  unassign,
  abort,
  reopen,
  editTitle,
  editDescription,
  editPriority,
  editRole,
  addNote,
  addNote,
  depend,
  depend,
  undepend,
  linkEpic,
  endMission,
  editObjective,
  editEpic,
  decideReview,
  label,
  label,
  unlabel,
  addCriterion,
  toggleCriterion,
  rewordCriterion,
];

type Step = [number, number, number];
const stepArb: fc.Arbitrary<Step> = fc.tuple(
  fc.nat({ max: EDITS.length - 1 }),
  fc.nat({ max: 60 }),
  fc.nat({ max: 60 }),
);
const historyArb = (max: number, min = 0) => fc.array(stepArb, { minLength: min, maxLength: max, size: "max" });

function play(s: State, g: Gen, steps: readonly Step[]): State {
  for (const [op, a, b] of steps) s = EDITS[op]!(s, g, a, b);
  return s;
}

function gen(side: string, clock = 0): Gen {
  return { side, clock, seq: 0, created: new Set() };
}

// ---------------------------------------------------------------------------------------------
// The store's half, as src/store/sync/state-merge.ts does it.

function touchedOf<K extends Kind>(k: K, base: State, local: State, remote: State): Touched<Recs[K]>[] {
  const numbers = [...new Set([...base[k].keys(), ...local[k].keys()])].sort((x, y) => x - y);
  const out: Touched<Recs[K]>[] = [];
  for (const n of numbers) {
    const b = (base[k].get(n) ?? null) as Recs[K] | null;
    const l = (local[k].get(n) ?? null) as Recs[K] | null;
    if (canon(b) === canon(l)) continue;
    const r = (remote[k].get(n) ?? null) as Recs[K] | null;
    out.push({ number: n, base: b, local: l, remote: r, remoteChanged: canon(r) !== canon(b) });
  }
  return out;
}

function mergeInput(base: State, local: State, remote: State, remoteName = "origin"): MergeInput {
  return {
    touched: {
      tasks: touchedOf("tasks", base, local, remote),
      epics: touchedOf("epics", base, local, remote),
      missions: touchedOf("missions", base, local, remote),
      reviews: touchedOf("reviews", base, local, remote),
    },
    counters: { local: { ...local.counters }, remote: { ...remote.counters } },
    remote: remoteName,
  };
}

/** The merge commit's state: the remote tree with the writes applied. */
function applyMerge(local: State, remote: State, out: MergeOutput): State {
  const next: Record<string, unknown> = { counters: { ...out.counters } };
  for (const k of KINDS) {
    const m = new Map<number, AnyRec>(remote[k] as ReadonlyMap<number, AnyRec>);
    for (const w of out.writes[k] as Array<{ number: number; value?: AnyRec; blob?: "local"; delete?: true }>) {
      if (w.value !== undefined) m.set(w.number, w.value);
      else if (w.delete) m.delete(w.number);
      else {
        const rec = local[k].get(w.number);
        if (!rec) throw new Error(`write ${k}/${w.number} asks for the local blob, but local has none there`);
        m.set(w.number, rec);
      }
    }
    next[k] = m;
  }
  return next as unknown as State;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

function merge(base: State, local: State, remote: State): { out: MergeOutput; result: State; input: MergeInput } {
  const input = deepFreeze(mergeInput(base, local, remote));
  const out = mergeState(input); // throws if it mutates its (frozen) input
  return { out, result: applyMerge(local, remote, out), input };
}

// ---------------------------------------------------------------------------------------------
// Checks shared by the properties.

/** Every record valid, keyed by its own number, uids unique, counters ≥ numbers. */
function expectSound(s: State, label: string): void {
  for (const k of KINDS) {
    const uids = new Set<string>();
    for (const [n, rec] of s[k]) {
      expect(rec.number, `${label}: ${k}/${n} holds a record numbered ${rec.number}`).toBe(n);
      const parsed = SCHEMAS[k].safeParse(rec);
      expect(
        parsed.success,
        `${label}: ${k}/${n} fails its schema: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`,
      ).toBe(true);
      expect((VIOLATIONS[k] as (r: AnyRec) => string[])(rec), `${label}: ${k}/${n} breaks an invariant`).toEqual([]);
      expect(uids.has(rec.uid), `${label}: uid ${rec.uid} appears twice among ${k}`).toBe(false);
      uids.add(rec.uid);
      expect(s.counters[k], `${label}: counters.${k} < ${n}`).toBeGreaterThanOrEqual(n);
    }
  }
}

/** References of a record, by the kind they point at (a review's task, a task's deps/epic/mission). */
function refsOf(k: Kind, rec: AnyRec): Array<{ kind: Kind; field: string; n: number | null }> {
  if (k === "tasks") {
    const t = rec as Task;
    return [
      { kind: "epics", field: "epic", n: t.epic },
      { kind: "missions", field: "mission", n: t.mission },
    ];
  }
  if (k === "reviews") return [{ kind: "tasks", field: "task", n: (rec as Review).task }];
  return [];
}

// ---------------------------------------------------------------------------------------------

/** Every base starts with two missions and three tasks, so both sides often edit one task (claims). */
const opOf = (e: Edit) => EDITS.indexOf(e);
const basePrefixArb = fc.tuple(
  ...[startMission, startMission, createTask, createTask, createTask].map((e) =>
    fc.tuple(fc.constant(opOf(e)), fc.nat({ max: 60 }), fc.nat({ max: 60 })),
  ),
) as fc.Arbitrary<Step[]>;
const scenarioArb = fc.record({
  base: fc.tuple(basePrefixArb, historyArb(10)).map(([p, rest]) => [...p, ...rest]),
  local: historyArb(12, 1),
  remote: historyArb(12, 1),
});

function scenario(h: { base: Step[]; local: Step[]; remote: Step[] }) {
  const g = gen("base");
  const base = play(EMPTY, g, h.base);
  const lg = gen("local", g.clock);
  const rg = gen("remote", g.clock);
  const local = play(base, lg, h.local);
  const remote = play(base, rg, h.remote);
  return { base, local, remote, localCreated: lg.created, remoteCreated: rg.created };
}

describe("mergeState over random histories (fast-check)", () => {
  it("the model only builds valid states (sanity check of the generator)", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        expectSound(base, "base");
        expectSound(local, "local");
        expectSound(remote, "remote");
      }),
      { numRuns: 50 },
    );
  });

  it("collisions do happen in the generated cases (the other properties are not vacuous)", () => {
    let collided = 0;
    let conflicts = 0;
    let dropped = 0;
    let bothChanged = 0;
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { out } = merge(base, local, remote);
        if (out.renumbered.length > 0) collided += 1;
        if (out.conflicts.length > 0) conflicts += 1;
        if (out.droppedClaims.length > 0) dropped += 1;
        if (
          [...base.tasks.values()].some(
            (b) => canon(local.tasks.get(b.number)) !== canon(b) && canon(remote.tasks.get(b.number)) !== canon(b),
          )
        )
          bothChanged += 1;
      }),
      { numRuns: RUNS },
    );
    expect(collided, "cases with a renumbering").toBeGreaterThan(RUNS / 4);
    expect(conflicts, "cases with a field conflict").toBeGreaterThan(RUNS / 20);
    expect(dropped, "cases with a dropped claim").toBeGreaterThan(0);
    expect(bothChanged, "cases with a task changed on both sides").toBeGreaterThan(RUNS / 4);
  });

  it("is deterministic and does not modify its input", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const input = mergeInput(base, local, remote);
        const copy = structuredClone(input);
        const first = mergeState(deepFreeze(input));
        const second = mergeState(copy);
        expect(second).toEqual(first);
        expect(copy).toEqual(input);
        // and through the store's application too
        expect(plain(applyMerge(local, remote, second))).toEqual(plain(applyMerge(local, remote, first)));
      }),
      { numRuns: RUNS },
    );
  });

  it("merging a state with itself changes nothing (local == remote)", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local } = scenario(h);
        const { out, result } = merge(base, local, local);
        expect(plain(result)).toEqual(plain(local));
        expect(out.renumbered).toEqual([]);
        expect(out.conflicts).toEqual([]);
        expect(out.droppedClaims).toEqual([]);
        // with no base (unrelated histories that happen to be equal) as well
        const { result: noBase } = merge(EMPTY, local, local);
        expect(plain(noBase)).toEqual(plain(local));
      }),
      { numRuns: RUNS },
    );
  });

  it("merging with its own ancestor takes the other side (local == base, or remote == base)", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const behind = merge(base, base, remote);
        expect(plain(behind.result), "local == base: the result is the remote").toEqual(plain(remote));
        expect(behind.out.renumbered).toEqual([]);
        expect(behind.out.conflicts).toEqual([]);
        const ahead = merge(base, local, base);
        expect(plain(ahead.result), "remote == base: the result is the local").toEqual(plain(local));
        expect(ahead.out.renumbered).toEqual([]);
        expect(ahead.out.conflicts).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it("loses no record, keeps numbers and uids unique, and every merged record valid", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { out, result } = merge(base, local, remote);
        expectSound(result, "merged");
        for (const k of KINDS) {
          const got = byUid(result, k);
          for (const rec of [...local[k].values(), ...remote[k].values()])
            expect(got.has(rec.uid), `${k} ${rec.uid} (#${rec.number}) was lost`).toBe(true);
          const known = new Set([...local[k].values(), ...remote[k].values()].map((r) => r.uid));
          for (const uid of got.keys()) expect(known.has(uid), `${k} ${uid} came from nowhere`).toBe(true);
          expect(result.counters[k]).toBeGreaterThanOrEqual(Math.max(local.counters[k], remote.counters[k]));
          // the published record keeps its number
          for (const rec of remote[k].values())
            expect(result[k].get(rec.number)?.uid, `${k} #${rec.number} of the remote moved`).toBe(rec.uid);
        }
        // every renumbering is reported, and only those
        for (const k of KINDS) {
          const got = byUid(result, k);
          for (const rec of local[k].values()) {
            const now = got.get(rec.uid)!;
            const reported = out.renumbered.find((r) => r.kind === k && r.from === rec.number);
            if (now.number !== rec.number)
              expect(reported, `${k} ${rec.uid} moved ${rec.number} → ${now.number} unreported`).toEqual({
                kind: k,
                from: rec.number,
                to: now.number,
              });
            else expect(reported, `${k} #${rec.number} reported as renumbered but did not move`).toBeUndefined();
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a renumbered record keeps its old number in formerNumbers and every local reference follows it", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { out, result } = merge(base, local, remote);
        const moved: Record<Kind, Map<number, number>> = {
          tasks: new Map(),
          epics: new Map(),
          missions: new Map(),
          reviews: new Map(),
        };
        for (const r of out.renumbered) {
          moved[r.kind].set(r.from, r.to);
          const mine = local[r.kind].get(r.from)!;
          const theirs = remote[r.kind].get(r.from)!;
          expect(mine && theirs && mine.uid !== theirs.uid, `${r.kind} #${r.from} renumbered without a collision`).toBe(
            true,
          );
          const now = result[r.kind].get(r.to)!;
          expect(now.uid).toBe(mine.uid);
          expect(now.formerNumbers).toContain(r.from);
          expect(result[r.kind].get(r.from)!.uid).toBe(theirs.uid);
          expect(base[r.kind].has(r.from), "a collision is between two new records").toBe(false);
        }
        // Records created on the local side: every reference is the local one, rewritten.
        const remoteUids = new Set(KINDS.flatMap((k) => [...remote[k].values()].map((x) => x.uid)));
        const fwd = (k: Kind, n: number | null) => (n === null ? null : (moved[k].get(n) ?? n));
        for (const k of KINDS) {
          for (const rec of local[k].values()) {
            if (remoteUids.has(rec.uid)) continue; // not created locally (remote records never disappear)
            const now = byUid(result, k).get(rec.uid)!;
            if (k === "tasks")
              expect((now as Task).dependencies, `dependencies of local ${rec.uid}`).toEqual(
                (rec as Task).dependencies.map((n) => fwd("tasks", n)),
              );
            for (const ref of refsOf(k, rec)) {
              const after = refsOf(k, now).find((x) => x.field === ref.field)!;
              expect(after.n, `${k} ${rec.uid}.${ref.field}`).toBe(fwd(ref.kind, ref.n));
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("references keep their meaning: each points at the record one of the sides meant", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { result } = merge(base, local, remote);
        for (const k of KINDS) {
          const L = byUid(local, k);
          const R = byUid(remote, k);
          for (const rec of result[k].values()) {
            const sides = [
              L.get(rec.uid) ? { s: local, r: L.get(rec.uid)! } : null,
              R.get(rec.uid) ? { s: remote, r: R.get(rec.uid)! } : null,
            ].filter((x) => x !== null);
            if (k === "tasks") {
              const meant = new Set(
                sides.flatMap(({ s, r }) => (r as Task).dependencies.map((n) => uidAt(s, "tasks", n))),
              );
              for (const d of (rec as Task).dependencies)
                expect(
                  meant.has(uidAt(result, "tasks", d)),
                  `tasks/${rec.number} depends on #${d}, which neither side meant`,
                ).toBe(true);
            }
            for (const ref of refsOf(k, rec)) {
              const meant = new Set(
                sides.map(({ s, r }) => uidAt(s, ref.kind, refsOf(k, r).find((x) => x.field === ref.field)!.n)),
              );
              expect(
                meant.has(uidAt(result, ref.kind, ref.n)),
                `${k}/${rec.number}.${ref.field} = ${ref.n}, which neither side meant`,
              ).toBe(true);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("records changed on both sides: notes are a union, dependency sets merge three-way, updatedAt is the later", () => {
    fc.assert(
      fc.property(scenarioArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { out, result } = merge(base, local, remote);
        const moved = new Map(out.renumbered.filter((r) => r.kind === "tasks").map((r) => [r.from, r.to]));
        const fwd = (n: number) => moved.get(n) ?? n;
        const L = byUid(local, "tasks");
        const R = byUid(remote, "tasks");
        for (const b of base.tasks.values()) {
          const l = L.get(b.uid)!;
          const r = R.get(b.uid)!;
          const m = byUid(result, "tasks").get(b.uid)!;
          const noteIds = new Set(m.notes.map((n) => n.id));
          for (const n of [...l.notes, ...r.notes])
            expect(noteIds.has(n.id), `note ${n.id} of tasks/${b.number} lost`).toBe(true);
          for (const n of m.notes)
            expect(
              n.kind === "conflict" || l.notes.some((x) => x.id === n.id) || r.notes.some((x) => x.id === n.id),
            ).toBe(true);
          if (canon(l) === canon(b) || canon(r) === canon(b)) continue;
          // three-way set merge, in the numbers of the result
          const bs = new Set(b.dependencies);
          const ls = new Set(l.dependencies.map(fwd));
          const rs = new Set(r.dependencies);
          const expected = [...new Set([...ls, ...rs])]
            .filter((d) => !bs.has(d) || (ls.has(d) && rs.has(d)))
            .sort((x, y) => x - y);
          expect(
            [...m.dependencies].sort((x, y) => x - y),
            `dependencies of tasks/${b.number}`,
          ).toEqual(expected);
          expect(m.updatedAt).toBe(l.updatedAt > r.updatedAt ? l.updatedAt : r.updatedAt);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a claim already published wins; a dropped claim and every losing value are reported and noted", () => {
    // The local side claims first, then both sides edit fields of tasks (often the same one).
    const claimStep = fc.tuple(fc.constant(opOf(claim)), fc.nat({ max: 60 }), fc.nat({ max: 60 }));
    const fieldStep = fc.tuple(
      fc.constantFrom(...[editTitle, editPriority, editRole, editDescription, claim, complete, abort].map(opOf)),
      fc.nat({ max: 60 }),
      fc.nat({ max: 60 }),
    );
    const contendedArb = fc.record({
      base: scenarioArb.map((x) => x.base),
      local: fc
        .tuple(claimStep, fc.array(fieldStep, { maxLength: 3 }), historyArb(4))
        .map(([c, f, rest]) => [c, ...f, ...rest]),
      remote: fc
        .tuple(fc.array(fieldStep, { minLength: 1, maxLength: 3 }), historyArb(4))
        .map(([f, rest]) => [...f, ...rest]),
    });
    fc.assert(
      fc.property(contendedArb, (h) => {
        const { base, local, remote } = scenario(h);
        const { out, result } = merge(base, local, remote);
        for (const d of out.droppedClaims) {
          const t = result.tasks.get(d.task)!;
          const r = remote.tasks.get(d.task)!;
          // "your claim by X was dropped" must be true: the merged task is not X's any more
          expect(
            t.claimedBy,
            `tasks/${d.task}: reported "your claim by ${d.local} was dropped", but the merged task keeps it`,
          ).toBe(r.claimedBy);
          expect(d.remote).toBe(r.claimedBy);
          expect(d.local).not.toBe(r.claimedBy);
        }
        for (const c of out.conflicts.filter((x) => x.kind === "tasks")) {
          const t = result.tasks.get(c.number)!;
          expect(
            t.notes.some((n) => n.kind === "conflict"),
            `tasks/${c.number} has no conflict note`,
          ).toBe(true);
        }
        // A task whose claim group changed differently on both sides keeps the remote's group.
        for (const b of base.tasks.values()) {
          const l = byUid(local, "tasks").get(b.uid)!;
          const r = byUid(remote, "tasks").get(b.uid)!;
          const group = (t: Task) => canon([t.status, t.claimedBy, t.mission, t.completedBy]);
          if (group(l) !== group(b) && group(r) !== group(b) && group(l) !== group(r)) {
            const m = byUid(result, "tasks").get(b.uid)!;
            expect(group(m), `claim group of tasks/${b.number}`).toBe(group(r));
            expect(out.conflicts.some((c) => c.kind === "tasks" && c.number === b.number)).toBe(true);
            const lostClaim =
              l.claimedBy !== null &&
              l.claimedBy !== r.claimedBy &&
              ["UNDERWAY", "REVIEW", "BLOCKED"].includes(l.status);
            if (lostClaim)
              expect(out.droppedClaims.some((d) => d.task === b.number && d.local === l.claimedBy)).toBe(true);
          }
        }
      }),
      { numRuns: 2 * RUNS },
    );
  });

  it("clones that sync in any order converge, with every record of every clone and unique numbers", () => {
    const cloneCount = 3;
    const eventArb = fc.record({ clone: fc.nat({ max: cloneCount - 1 }), edits: historyArb(5) });
    fc.assert(
      fc.property(historyArb(8), fc.array(eventArb, { minLength: 1, maxLength: 8 }), (baseSteps, events) => {
        const g0 = gen("base");
        const start = play(EMPTY, g0, baseSteps);
        let origin = start;
        const created = new Set<string>([...g0.created]);
        const clones = Array.from({ length: cloneCount }, (_, i) => ({
          g: gen(`clone${"abc"[i]}`, g0.clock),
          base: start,
          local: start,
        }));
        const sync = (c: (typeof clones)[number]) => {
          if (canon(plain(c.local)) === canon(plain(c.base)))
            c.local = c.base = origin; // behind or equal: fast-forward
          else if (canon(plain(origin)) === canon(plain(c.base)))
            origin = c.base = c.local; // ahead: push
          else {
            const { result } = merge(c.base, c.local, origin);
            expectSound(result, "a sync merge");
            origin = c.base = c.local = result;
          }
        };
        for (const e of events) {
          const c = clones[e.clone]!;
          c.local = play(c.local, c.g, e.edits);
          for (const uid of c.g.created) created.add(uid);
          sync(c);
        }
        for (let round = 0; round < 2; round++) for (const c of clones) sync(c);
        for (const c of clones) expect(plain(c.local)).toEqual(plain(origin));
        expectSound(origin, "converged");
        const present = new Set(KINDS.flatMap((k) => [...origin[k].values()].map((r) => r.uid)));
        for (const uid of created) expect(present.has(uid), `${uid} was lost on the way`).toBe(true);
        for (const k of KINDS)
          for (const rec of origin[k].values()) {
            for (const ref of refsOf(k, rec))
              if (ref.n !== null)
                expect(origin[ref.kind].has(ref.n), `${k}/${rec.number}.${ref.field} → missing #${ref.n}`).toBe(true);
            if (k === "tasks")
              for (const d of (rec as Task).dependencies)
                expect(origin.tasks.has(d), `tasks/${rec.number} depends on missing #${d}`).toBe(true);
          }
      }),
      { numRuns: 100 },
    );
  });
});
