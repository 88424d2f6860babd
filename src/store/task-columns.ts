import type { TaskSummary } from "../domain/schemas/task.js";

/**
 * Task summaries stored column by column: at 50,000 tasks, one JSON of columns parses in ~11 ms
 * where an array of objects takes ~95 ms. Enumerations are one letter per task; rare fields
 * (dependencies, claims, epics) are sparse maps keyed by row.
 */
export interface TaskColumns {
  n: number[];
  /** Blob ids, 40 hex characters per row, concatenated: what changed is found without reading. */
  o: string;
  t: string[];
  s: string;
  r: string;
  p: string;
  /** Timestamps as stored (ISO text): converting 20,000 dates costs more than parsing the text. */
  ca: string[];
  ua: string[];
  d: Record<number, number[]>;
  e: Record<number, number>;
  c: Record<number, [string, number | null]>;
  cb: Record<number, string>;
  f: Record<number, number[]>;
}

const STATUS = { TODO: "T", READY: "R", UNDERWAY: "U", REVIEW: "V", BLOCKED: "B", COMPLETE: "C", ABORTED: "A" } as const;
const ROLE = { architect: "A", engineer: "E", tester: "T", documentarian: "D", inspector: "I", operator: "O" } as const;
const PRIORITY = { CRITICAL: "C", HIGH: "H", MEDIUM: "M", LOW: "L" } as const;
const invert = <T extends Record<string, string>>(m: T) => Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k])) as Record<string, keyof T>;
const STATUS_OF = invert(STATUS);
const ROLE_OF = invert(ROLE);
const PRIORITY_OF = invert(PRIORITY);


export function encodeColumns(rows: ReadonlyArray<{ summary: TaskSummary; oid: string }>): TaskColumns {
  const c: TaskColumns = { n: [], o: "", t: [], s: "", r: "", p: "", ca: [], ua: [], d: {}, e: {}, c: {}, cb: {}, f: {} };
  const oids: string[] = [];
  const s: string[] = [];
  const r: string[] = [];
  const p: string[] = [];
  rows.forEach(({ summary: x, oid }, i) => {
    c.n.push(x.number);
    oids.push(oid);
    c.t.push(x.title);
    s.push(STATUS[x.status]);
    r.push(ROLE[x.role]);
    p.push(PRIORITY[x.priority]);
    c.ca.push(x.createdAt);
    c.ua.push(x.updatedAt);
    if (x.dependencies.length > 0) c.d[i] = x.dependencies;
    if (x.epic !== null) c.e[i] = x.epic;
    if (x.claimedBy !== null || x.mission !== null) c.c[i] = [x.claimedBy ?? "", x.mission];
    if (x.completedBy !== null) c.cb[i] = x.completedBy;
    if (x.formerNumbers.length > 0) c.f[i] = x.formerNumbers;
  });
  return { ...c, o: oids.join(""), s: s.join(""), r: r.join(""), p: p.join("") };
}

export function decodeColumns(c: TaskColumns): Array<{ summary: TaskSummary; oid: string }> {
  const out: Array<{ summary: TaskSummary; oid: string }> = new Array(c.n.length);
  for (let i = 0; i < c.n.length; i++) {
    const claim = c.c[i];
    out[i] = {
      oid: c.o ? c.o.slice(i * 40, i * 40 + 40) : "",
      summary: {
        number: c.n[i]!,
        title: c.t[i]!,
        status: STATUS_OF[c.s[i]!]!,
        role: ROLE_OF[c.r[i]!]!,
        priority: PRIORITY_OF[c.p[i]!]!,
        dependencies: c.d[i] ?? [],
        epic: c.e[i] ?? null,
        claimedBy: claim ? claim[0] || null : null,
        mission: claim ? claim[1] : null,
        completedBy: c.cb[i] ?? null,
        createdAt: c.ca[i]!,
        updatedAt: c.ua[i]!,
        formerNumbers: c.f[i] ?? [],
      },
    };
  }
  return out;
}
