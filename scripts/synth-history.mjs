// A long state history for the bench (issue: history-bound reads at scale), written with
// `git fast-import` in one process: a team of eight personas working through tasks, one commit
// per command with Pantheon's trailers (DESIGN §2.2), and a sync merge of another clone's side
// branch every few hundred commits. 100,000 commits take ~10–20 s here, where running the
// commands would take hours. Records are canonical JSON that the schemas accept, so
// `task history` reads them as it reads real ones.
//
//   node scripts/synth-history.mjs DIR COMMITS     (DIR: a repository after `pantheon init`)
import { execFileSync, spawn } from "node:child_process";
import { resolve } from "node:path";

const STATE = "refs/coordination/main";
const PERSONAS = [
  ["Hephaestus", "engineer"],
  ["Athena", "architect"],
  ["Hermes", "engineer"],
  ["Artemis", "tester"],
  ["Apollo", "documentarian"],
  ["Hestia", "operator"],
  ["Ares", "inspector"],
  ["Demeter", "engineer"],
];
const PRIORITIES = ["CRITICAL", "HIGH", "MEDIUM", "LOW"];
const TITLES = ["login", "billing", "search", "export", "sync", "reports", "onboarding", "settings"];

/** Sorted keys, two-space indent, trailing newline: what Pantheon writes (store/state/canonical-json.ts). */
function canon(v) {
  const sort = (x) =>
    Array.isArray(x)
      ? x.map(sort)
      : x && typeof x === "object"
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort(x[k])]),
          )
        : x;
  return `${JSON.stringify(sort(v), null, 2)}\n`;
}

const shard = (n) => String(n % 100).padStart(2, "0");
const taskPath = (n) => `tasks/${shard(n)}/${n}.json`;
const missionPath = (n) => `missions/${shard(n)}/${n}.json`;

/** A small deterministic generator (mulberry32), so every bench run builds the same history. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Appends `commits` commits to the state ref of `dir` (which `pantheon init` made), spread over
 * the two weeks before now; returns the number of tasks created. The stream goes to fast-import
 * as it is made, so memory stays small.
 */
export async function synthesizeHistory(dir, commits, { seed = 7 } = {}) {
  const git = (...a) => execFileSync("git", a, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 }).trim();
  const from = git("rev-parse", STATE);
  const counters = JSON.parse(git("cat-file", "blob", `${from}:counters.json`));
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const child = spawn("git", ["fast-import", "--quiet", "--done", "--force"], {
    cwd: dir,
    stdio: ["pipe", "inherit", "inherit"],
  });
  const exited = new Promise((ok, fail) =>
    child.on("exit", (code) => (code === 0 ? ok() : fail(new Error(`git fast-import exited ${code}`)))),
  );
  let buf = [];
  let size = 0;
  const out = async (s) => {
    buf.push(s);
    size += s.length;
    if (size > 1 << 20) {
      const chunk = buf.join("");
      buf = [];
      size = 0;
      if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once("drain", r));
    }
  };

  const end = Math.floor(Date.now() / 1000) - 600;
  const span = 14 * 86_400;
  let clock = end - span;
  const step = span / commits;
  const iso = (t) => new Date(t * 1000).toISOString();

  const tasks = new Map(); // number → record
  const todo = []; // numbers of TODO tasks nobody holds
  const missions = [];
  const holding = new Map(); // persona → task number
  let mark = 0;
  let tip = from;
  let made = 0;

  const commit = async ({ summary, op, actor, mission, files, parents = [tip] }) => {
    const records = [
      ...new Set(files.map(([p]) => p.replace(/^(\w+)\/\d\d\/(\d+)\.json$/, "$1/$2").replace(/\.json$/, ""))),
    ];
    const message = [
      summary,
      "",
      `Pantheon-Op: ${op}`,
      `Pantheon-Actor: ${actor}`,
      ...(mission ? [`Pantheon-Mission: ${mission}`] : []),
      `Pantheon-Records: ${records.sort().join(", ")}`,
      "",
    ].join("\n");
    const t = Math.floor(clock);
    const author =
      actor === "Director" ? "Bench" : `${actor} (${PERSONAS.find((p) => p[0] === actor)?.[1] ?? "engineer"})`;
    mark++;
    let s = `commit ${STATE}\nmark :${mark}\nauthor ${author} <bench@example.com> ${t} +0000\ncommitter Bench <bench@example.com> ${t} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`;
    const [first, ...rest] = parents;
    s += `from ${typeof first === "number" ? `:${first}` : first}\n`;
    for (const p of rest) s += `merge ${typeof p === "number" ? `:${p}` : p}\n`;
    for (const [path, text] of files) s += `M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
    await out(s);
    tip = mark;
    made++;
    clock += step * (0.5 + random());
  };

  const counterFile = () => ["counters.json", canon(counters)];
  const missionId = (m) => `MSN-${String(m.number).padStart(4, "0")}:${m.codename}`;
  const taskId = (t) => `${t.role.slice(0, 3).toUpperCase()}-${t.priority[0]}-${String(t.number).padStart(4, "0")}`;

  // The team's missions.
  for (const [persona, role] of PERSONAS) {
    const number = ++counters.missions;
    const at = iso(clock);
    const m = {
      assistant: null,
      codename: `bench-${persona.toLowerCase()}`,
      createdAt: at,
      createdBy: persona,
      endedAt: null,
      formerNumbers: [],
      headAtEnd: null,
      headAtStart: null,
      number,
      objective: "",
      persona,
      role,
      startedAt: at,
      status: "ACTIVE",
      summary: null,
      uid: `0000000000000000000000000000${String(number).padStart(4, "0")}`,
      updatedAt: at,
      worktree: null,
    };
    missions.push(m);
    await commit({
      summary: `mission ${missionId(m)} start by ${persona}`,
      op: "mission.start",
      actor: persona,
      mission: missionId(m),
      files: [counterFile(), [missionPath(number), canon(m)]],
    });
  }

  const create = async () => {
    const number = ++counters.tasks;
    const at = iso(clock);
    const t = {
      claimedBy: null,
      completedBy: null,
      createdAt: at,
      createdBy: "Director",
      dependencies: number > 20 && number % 5 === 0 ? [number - 13] : [],
      description: `Generated for the history bench; task ${number}.`,
      epic: null,
      formerNumbers: [],
      formerRoles: [],
      mission: null,
      notes: [],
      number,
      priority: pick(PRIORITIES),
      role: pick(PERSONAS)[1],
      status: "TODO",
      title: `Task ${number}: ${pick(TITLES)} work item ${number % 97}`,
      uid: `${String(number).padStart(32, "0")}`,
      updatedAt: at,
    };
    tasks.set(number, t);
    todo.push(number);
    await commit({
      summary: `task ${taskId(t)} create by Director`,
      op: "task.create",
      actor: "Director",
      files: [counterFile(), [taskPath(number), canon(t)]],
    });
  };

  const change = async (t, op, actor, m, edit) => {
    edit(t);
    t.updatedAt = iso(clock);
    await commit({
      summary: `task ${taskId(t)} ${op.slice(5)} by ${actor}`,
      op,
      actor,
      mission: m ? missionId(m) : null,
      files: [[taskPath(t.number), canon(t)]],
    });
  };
  const note = (actor, text) => (t) =>
    t.notes.push({ at: iso(clock), by: actor, id: `n${made.toString(16).padStart(11, "0")}`, kind: "note", text });

  /** Another clone's work on tasks nobody here holds, merged as a sync merge does (parents: local, remote). */
  const sideBranch = async () => {
    const fork = tip;
    const taken = todo.splice(0, 3).map((n) => tasks.get(n));
    if (taken.length === 0) return;
    const side = [];
    let at = fork;
    for (const t of taken) {
      note("Athena", "looked at this on another clone")(t);
      t.updatedAt = iso(clock);
      side.push([taskPath(t.number), canon(t)]);
      await commit({
        summary: `task ${taskId(t)} note by Athena`,
        op: "task.note",
        actor: "Athena",
        mission: missionId(missions[1]),
        files: [[taskPath(t.number), canon(t)]],
        parents: [at],
      });
      at = tip;
    }
    const sideTip = tip;
    tip = fork;
    // Local work meanwhile, then the merge.
    for (let i = 0; i < 3; i++) await step1();
    await commit({
      summary: "sync: merge origin",
      op: "sync.merge",
      actor: "Director",
      files: side,
      parents: [tip, sideTip],
    });
    for (const t of taken) todo.push(t.number);
  };

  const step1 = async () => {
    const r = random();
    if (todo.length < 40 || r < 0.12) return create();
    const i = Math.floor(random() * PERSONAS.length);
    const [persona] = PERSONAS[i];
    const m = missions[i];
    const held = holding.get(persona);
    if (held === undefined) {
      const n = todo.splice(Math.floor(random() * Math.min(todo.length, 30)), 1)[0];
      holding.set(persona, n);
      return change(tasks.get(n), "task.claim", persona, m, (t) => {
        t.status = "UNDERWAY";
        t.claimedBy = persona;
        t.mission = m.number;
      });
    }
    const t = tasks.get(held);
    if (t.status === "UNDERWAY") {
      if (r < 0.55) return change(t, "task.note", persona, m, note(persona, `progress on ${t.title.slice(0, 30)}`));
      return change(t, "task.submit", persona, m, (x) => (x.status = "REVIEW"));
    }
    holding.delete(persona);
    if (r < 0.08)
      return change(t, "task.abort", persona, m, (x) => {
        x.status = "ABORTED";
      });
    return change(t, "task.complete", persona, m, (x) => {
      x.status = "COMPLETE";
      x.completedBy = persona;
    });
  };

  while (made < commits) {
    if (made > 0 && made % 250 === 0 && made + 8 < commits) await sideBranch();
    else await step1();
  }
  await out("done\n");
  child.stdin.end(buf.join(""));
  await exited;
  return { tasks: counters.tasks, commits: made };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [dir, n] = process.argv.slice(2);
  const t0 = Date.now();
  const r = await synthesizeHistory(resolve(dir), Number(n ?? 100_000));
  console.log(`${r.commits} commits, ${r.tasks} tasks in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
