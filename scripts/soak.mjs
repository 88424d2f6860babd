#!/usr/bin/env node
// Soak test (issue 6 item 6; not run in CI). Two modes:
//
//   npm run soak -- [--processes N] [--minutes M] [--seed S] [--keep] [--gc | --gc-prune] [--pack-loose N]
//   npm run soak -- --clones N [--transport file|http|ssh|all] [--minutes M] [--seed S] [--keep]
//
// (`npm run soak` builds first, then runs node scripts/soak.mjs with these arguments.)
//
// MULTI-CLONE MODE (--clones N, or --transport; N ≥ 2, default 8 with --transport alone; transport
// default file; `all` runs file, http and ssh one after another, each with its own directories):
// scripts/soak-multi.mjs, scripts/soak-persona.mjs, scripts/soak-checks.mjs (the checks, pure:
// test/unit/scripts/soak-checks.test.ts feeds them fabricated logs), scripts/soak-transports.mjs.
// 1. Set-up, all in one temporary directory: a bare origin (http.receivepack on), served
//    - file: as file://PATH;
//    - http: by a small Node server (scripts/soak-http-backend.mjs, its own process) on
//      127.0.0.1 at a random port that runs git's own `git http-backend` as CGI per request
//      (GIT_PROJECT_ROOT, GIT_HTTP_EXPORT_ALL);
//    - ssh: by an sshd the script starts on 127.0.0.1 at a random port, with its own host key,
//      authorized_keys and client key (ed25519, generated), `AllowUsers` the current user (as root
//      it allows root with that key only); clones reach it with GIT_SSH_COMMAND="ssh -F /dev/null
//      -i KEY -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes -o
//      UserKnownHostsFile=RUN/ssh/known_hosts -o StrictHostKeyChecking=yes -p PORT": the user's
//      ~/.ssh is neither read nor written. No sshd: as root with apt-get, the script runs
//      `apt-get install -y --no-install-recommends openssh-server`; otherwise it fails saying so.
//    N clones made with `git clone` over the transport: clone 0 commits, runs `pantheon init
//    --yes`, commits the project files, pushes and `pantheon sync`s; the others `git clone` and
//    adopt the state with `pantheon init --yes`.
// 2. One persona per clone, each its own process (roles: engineer, engineer, tester, engineer,
//    tester, engineer, architect, engineer, …), for M minutes: mission start; task next and claim
//    (mostly the first task offered, as every persona of a role is told the same); move its task
//    to REVIEW (half with --notes) or close it, or note it; approve (--notes) or reject (--reason)
//    another persona's PENDING review (mostly the oldest); create tasks; note; sync now and then;
//    read now and then; sometimes end the mission (half with --release) and start another.
//    Choices come from a PRNG seeded with --seed and the clone's index. Every command runs with
//    --json; each outcome is appended to RUN/logs/clone-K.ndjson: exit code, ok / refused /
//    failed, error code and message class, `published` as the --json result says it (true,
//    false, or not said) and, apart, the product's stderr line "not published yet (why)", the
//    task it was about (by title: a sync may renumber it), the text it carried (each text has a
//    unique tag), times.
// 3. Convergence: every clone runs `pantheon sync`, one after another, round after round (at most
//    6) until every clone and origin name one tip.
// 4. Checks, over the records and the converged state (raw records read with git):
//    - 0 failed commands: exit 0 with one --json envelope, or a documented refusal (exit 1 with
//      E_NOT_FOUND, E_INVALID_TRANSITION, E_CONFLICT or E_RENUMBERED; exit 3 only for `sync`,
//      E_SYNC); anything else fails (exit 2, exit 3 of another command, E_GIT_*, E_INTERNAL, a
//      stack trace, a broken envelope);
//    - 0 tasks worked by two personas at once, both told they hold it: a persona is told it holds
//      a task when its `task claim` exited 0 and its --json result did not say published:false;
//      its episode runs from that answer to the answer of its next `task update`/`task close` of
//      the task that exited 0 (a claim never moved on makes none); two episodes of one task by
//      different personas that overlap in time are a violation, shown with the history's
//      evidence (`git log refs/coordination/main`: the Pantheon-Op task.claim commits by
//      Pantheon-Actor on that task, and whether neither contains the other);
//    - 0 texts lost: every review --notes/--reason and task note a command reported ✓ for is in
//      the final state's task notes or review reasons (found by its tag);
//    - review requests follow their claims: no PENDING task_completion review on a task that is
//      not in REVIEW or is held by someone other than the requester, none twice for a task, no
//      task with more APPROVED ones than it completed (1 + its reopens);
//    - one tip across the clones and origin; `git fsck --strict` clean in each clone and origin;
//      every task created with ✓ present (by title); and the one-repository mode's state
//      invariants on clone 0 (doctor, numbers, uids, counters, claims, epics; merges allowed).
//    Printed: commands per kind (run, ok, refused, failed, p50/p90 ms), refusals by class, claim
//    publishing (said published / not published / nothing, the stderr line apart, over the 5 s
//    budget, times), what the syncs reported (dropped claims, conflicts, renumberings), the
//    final rounds, the state and history at the end, then each invariant ✓ or ✗ with evidence
//    (the first 8 of each) and a PASS or FAIL line per transport; exit 1 on any FAIL. --keep (or
//    a FAIL) keeps the run's directory (clones, origin, logs).
//
// ONE-REPOSITORY MODE (the default):
// What it does:
// 1. creates a temporary repository with `pantheon init --yes` and a linked worktree;
// 2. starts N worker processes (default 6; half of them in the worktree) that for M minutes
//    (default 2; fractions accepted) run random VALID commands of the built CLI
//    (dist/pantheon.js): mission start/end, task create (with random dependencies, sometimes in
//    an epic), claim, update --status, handoff, unassign, close, reopen, note, depend/undepend,
//    priority, epic create/link, review approve/reject, and now and then a read. Choices come
//    from a PRNG seeded with --seed (default: the clock, printed) plus the worker's index;
//    process timing still varies from run to run.
//    Refusals (exit 1 with a domain error) are expected and counted by message class. A failure
//    is: exit 2 (a valid command called a usage error), any other exit code but 0/1, a stack
//    trace, an internal error ("this is a bug"), or output that breaks the contract (--json
//    stdout that is not one document, a refusal without a `✗` line).
// 3. then checks the invariants with the built CLI and git:
//    - `doctor --json` reports no error;
//    - numbers are unique per kind, and so are uids;
//    - counters.json (git cat-file -p refs/coordination/main:counters.json) ≥ every number;
//    - every UNDERWAY task has claimedBy and a mission that exists (and is that persona's);
//    - each epic's status and progress (`epic show --json`) match its tasks (DESIGN §1.4);
//    - every record is valid: no list command warns of a skipped record;
//    - every task a worker saw created (with ✓ / exit 0) is present with its title;
//    - history is linear except for merges: `git rev-list --merges` is empty (there is no sync);
//    - `git fsck --strict` is clean (dangling objects of lost races aside).
// 4. prints the counts (commands per kind, successes, refusals by class, failures, records at
//    the end, commits, wall time) and a final PASS or FAIL line; exits 1 on FAIL.
//
// --gc (issue 12): while the workers run, a loop runs `git gc` and `git repack -ad` on the
// repository, one after another, without pause; --gc-prune adds `git gc --prune=now` to the
// loop (git documents that prune as unsafe beside writers; DESIGN §2.3 closes the window for
// Pantheon's objects). After every gc the loop checks that the ref names a commit that is there
// (`git cat-file -e`), and every few runs `git fsck --connectivity-only` (fsck lists the objects
// it has before it reads the reflogs, so a commit made in between is "invalid" to it: an object
// it names counts only if `git cat-file -e` cannot find it either). At the end, beside the
// invariants above: every gc run succeeded (a gc fails on a broken history), the ref never named
// a missing object, and after `git update-ref -d` of the ref, `doctor --recover` lists its last
// commit first and `doctor --recover <commit>` restores every record.
//
// --pack-loose N (with --gc or --gc-prune, or alone): the workers pack their loose objects past N
// (PANTHEON_PACK_LOOSE), so packing, roll-ups and releases run beside the gc loop in a short run;
// the objects left loose are printed at the end.
//
// --keep leaves the temporary repository in place (its path is printed); on FAIL it is kept too.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ENV, git, hashSeed, messageClass, pad, prng, REF, runPantheon, STACK } from "./soak-common.mjs";
import { runMultiClone } from "./soak-multi.mjs";
import { checkInvariants } from "./soak-state-checks.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const BUILT = join(ROOT, "dist", "pantheon.js");
/** The bundle the run uses: a copy of dist/ and templates/ taken at the start, so a rebuild meanwhile cannot break it. */
let BIN = BUILT;

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** --pack-loose N: Pantheon packs its loose objects past N (PANTHEON_PACK_LOOSE), so packing runs beside the gc loop. */
let PACK_LOOSE = null;

function pantheon(cwd, argv) {
  return runPantheon(BIN, cwd, argv, PACK_LOOSE === null ? ENV : { ...ENV, PANTHEON_PACK_LOOSE: String(PACK_LOOSE) });
}

// ---------------------------------------------------------------------------------------------
// Worker

const WORKER_ROLES = ["engineer", "tester", "engineer", "architect", "tester", "engineer", "documentarian", "operator"];
const PRIORITIES = ["critical", "high", "medium", "low"];
const WORDS = [
  "login",
  "cache",
  "parser",
  "sync",
  "report",
  "docs",
  "deploy",
  "token",
  "schema",
  "index",
  "retry",
  "queue",
];
const SPICE = ["", "", "", " — ünïcödé", " 漢字", " 🚀", ' "quoted"', " tab\there"];

async function worker(cfg) {
  BIN = cfg.bin;
  PACK_LOOSE = cfg.packLoose ?? null;
  const rnd = prng(hashSeed(cfg.seed, cfg.index));
  const name = `Soak${"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[cfg.index % 26]}${Math.floor(cfg.index / 26) || ""}`;
  const role = WORKER_ROLES[cfg.index % WORKER_ROLES.length];
  const stats = {
    index: cfg.index,
    name,
    role,
    cwd: cfg.cwd,
    kinds: {},
    ok: 0,
    refused: 0,
    failed: 0,
    refusals: {},
    failures: [],
    created: [],
    ms: 0,
  };
  let mission = null; // { handle }
  const view = { tasks: [], reviews: [], epics: [], at: -1 };
  let n = 0;

  const record = (kind, argv, r, json) => {
    const k = (stats.kinds[kind] ??= { run: 0, ok: 0, refused: 0, failed: 0 });
    k.run++;
    stats.ms += r.ms;
    const fail = (why) => {
      k.failed++;
      stats.failed++;
      if (stats.failures.length < 20)
        stats.failures.push({
          kind,
          argv,
          why,
          status: r.status,
          signal: r.signal,
          stdout: r.stdout.slice(0, 800),
          stderr: r.stderr.slice(0, 1500),
        });
      return "failed";
    };
    if (r.error) return fail(`spawn error: ${r.error.message}`);
    if (STACK.test(r.stderr) || STACK.test(r.stdout)) return fail("stack trace");
    if (/this is a bug in pantheon|"E_INTERNAL"/.test(r.stderr)) return fail("internal error");
    if (r.status === 0) {
      if (json) {
        try {
          const doc = JSON.parse(r.stdout);
          if (doc.schemaVersion !== 1 || typeof doc.kind !== "string") return fail("--json envelope");
        } catch {
          return fail("--json stdout is not one JSON document");
        }
      } else if (r.stdout.includes("\u001b")) return fail("raw ESC in human output");
      k.ok++;
      stats.ok++;
      return "ok";
    }
    if (r.status === 1) {
      let message;
      if (json) {
        try {
          const e = JSON.parse(r.stderr.trim().split("\n").at(-1)).error;
          message = e.message;
        } catch {
          return fail("--json refusal: stderr is not a JSON error");
        }
      } else {
        const line = r.stderr.split("\n").find((l) => l.startsWith("✗ "));
        if (!line) return fail("refusal without a ✗ line");
        if (!/\n {2}hint: \S/.test(r.stderr)) return fail("refusal without a hint line");
        message = line;
      }
      if (r.stdout !== "") return fail("a refusal printed to stdout");
      k.refused++;
      stats.refused++;
      const cls = `${kind}: ${messageClass(message)}`;
      stats.refusals[cls] = (stats.refusals[cls] ?? 0) + 1;
      return "refused";
    }
    return fail(
      r.status === 2 ? "usage error (exit 2) for a valid command" : `exit ${r.status ?? `signal ${r.signal}`}`,
    );
  };

  const run = (kind, argv, o = {}) => {
    const json = o.json ?? rnd.chance(0.75);
    const full = json ? [...argv, "--json"] : argv;
    const r = pantheon(cfg.cwd, full);
    const outcome = record(kind, full, r, json);
    let data = null;
    if (outcome === "ok" && json) {
      const doc = JSON.parse(r.stdout);
      data = doc.data;
      // Keep the local view fresh with what a mutation returned (the task, and changed records).
      for (const rec of [doc.data, ...(Array.isArray(doc.changed) ? doc.changed : [])]) {
        if (
          rec &&
          typeof rec === "object" &&
          typeof rec.number === "number" &&
          /^[A-Z]{3}-[CHML]-\d+$/.test(rec.id ?? "") &&
          !rec.id.startsWith("EPC")
        ) {
          const i = view.tasks.findIndex((t) => t.number === rec.number);
          if (i >= 0) view.tasks[i] = { ...view.tasks[i], ...rec };
        }
        if (rec && /^RVW-\d+$/.test(rec.id ?? "") && !view.reviews.some((v) => v.id === rec.id))
          view.reviews.push({ id: rec.id });
      }
    }
    return { outcome, data, r };
  };

  const refresh = () => {
    const t = run("read: task list", ["task", "list"], { json: true });
    const v = run("read: review list", ["review", "list", "--status", "PENDING"], { json: true });
    const e =
      view.at < 0 || rnd.chance(0.3) ? run("read: epic list", ["epic", "list"], { json: true }) : { data: null };
    if (t.data) view.tasks = t.data;
    if (v.data) view.reviews = v.data;
    if (e.data) view.epics = e.data;
    if (t.r.stderr.trim() !== "")
      stats.failures.length < 20 &&
        stats.failures.push({
          kind: "read",
          argv: ["task", "list", "--json"],
          why: "warning on stderr",
          stderr: t.r.stderr.slice(0, 800),
        });
    view.at = n;
  };

  const actor = () => (mission ? ["--mission", mission.handle] : []);
  const taskArg = (t) => (rnd.chance(0.5) ? String(t.number) : t.id);
  const anyTask = () => (view.tasks.length > 0 ? rnd.pick(view.tasks) : null);
  const tasksWhere = (pred) => view.tasks.filter(pred);
  const note = () => `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}${rnd.pick(SPICE)} (${name} #${n})`;

  const startMission = () => {
    const r = run(
      "mission start",
      ["mission", "start", "--role", role, "--persona", name, "--objective", `soak ${note()}`],
      { json: true },
    );
    if (r.data) mission = { handle: r.data.handle ?? r.data.id, id: r.data.id };
    else if (r.outcome === "refused") {
      // Our persona is still on an ACTIVE mission (a previous end raced): find it.
      const m = run("read: mission list", ["mission", "list", "--active"], { json: true });
      const mine = (m.data ?? []).find((x) => x.persona === name);
      if (mine) mission = { handle: mine.handle ?? mine.id, id: mine.id };
    }
  };

  const ops = {
    "mission start": () => startMission(),
    "mission end": () => {
      if (!mission) return startMission();
      const release = rnd.chance(0.5);
      run("mission end", ["mission", "end", mission.handle, "--summary", note(), ...(release ? ["--release"] : [])]);
      mission = null;
    },
    "task create": () => {
      const deps = [];
      const k = rnd.int(3);
      for (let i = 0; i < k && view.tasks.length > 0; i++) deps.push("--depends-on", taskArg(rnd.pick(view.tasks)));
      const epic = view.epics.length > 0 && rnd.chance(0.25) ? ["--epic", rnd.pick(view.epics).id] : [];
      const title = `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}${rnd.pick(SPICE)} w${cfg.index}#${n}`;
      const taskRole = rnd.chance(0.6) ? role : rnd.pick(WORKER_ROLES);
      const r = run(
        "task create",
        [
          "task",
          "create",
          "--title",
          title,
          "--role",
          taskRole,
          "--priority",
          rnd.pick(PRIORITIES),
          ...deps,
          ...epic,
          ...(rnd.chance(0.3) ? ["--description", note()] : []),
        ],
        { json: true },
      );
      if (r.data) {
        stats.created.push({ number: r.data.number, title });
        view.tasks.push(r.data);
      }
    },
    "task claim": () => {
      if (!mission) return startMission();
      const ready = tasksWhere(
        (t) => (t.status === "TODO" || t.status === "READY") && t.role === role && t.blockedBy.length === 0,
      );
      const resumable = tasksWhere(
        (t) => t.claimedBy === name && ["UNDERWAY", "BLOCKED", "REVIEW"].includes(t.status) && t.mission !== mission.id,
      );
      const t = rnd.chance(0.8)
        ? rnd.pick([...ready, ...resumable].length > 0 ? [...ready, ...resumable] : view.tasks)
        : anyTask();
      if (t) run("task claim", [...actor(), "task", "claim", taskArg(t)]);
    },
    "task update": () => {
      const mine = tasksWhere((t) => t.claimedBy === name && ["UNDERWAY", "BLOCKED", "REVIEW"].includes(t.status));
      const t = mine.length > 0 && rnd.chance(0.85) ? rnd.pick(mine) : anyTask();
      if (!t) return;
      // Mostly the moves the table allows from where the task is; sometimes any status (a refusal).
      const next = {
        UNDERWAY: ["REVIEW", "REVIEW", "REVIEW", "BLOCKED"],
        BLOCKED: ["UNDERWAY", "TODO"],
        REVIEW: ["UNDERWAY", "BLOCKED"],
        TODO: ["UNDERWAY", "BLOCKED"],
        READY: ["UNDERWAY", "BLOCKED"],
      }[t.status];
      const status = next && rnd.chance(0.85) ? rnd.pick(next) : rnd.pick(["REVIEW", "BLOCKED", "UNDERWAY", "TODO"]);
      const extra =
        status === "BLOCKED" ? ["--notes", note()] : status === "REVIEW" && rnd.chance(0.15) ? ["--no-review"] : [];
      run("task update", [...actor(), "task", "update", taskArg(t), "--status", status, ...extra]);
    },
    "task handoff": () => {
      const mine = tasksWhere((t) => t.claimedBy === name && ["UNDERWAY", "BLOCKED"].includes(t.status));
      const t = mine.length > 0 ? rnd.pick(mine) : anyTask();
      if (t) run("task handoff", [...actor(), "task", "handoff", taskArg(t), "--notes", note()]);
    },
    "task unassign": () => {
      const claimed = tasksWhere(
        (t) => t.claimedBy !== null && ["UNDERWAY", "REVIEW", "BLOCKED", "READY"].includes(t.status),
      );
      const t = claimed.length > 0 ? rnd.pick(claimed) : anyTask();
      if (t) run("task unassign", ["task", "unassign", taskArg(t), "--notes", note()]); // as the Director: an owner
    },
    "task close": () => {
      const mine = tasksWhere((t) => t.claimedBy === name && ["UNDERWAY", "REVIEW"].includes(t.status));
      const t = mine.length > 0 && rnd.chance(0.8) ? rnd.pick(mine) : anyTask();
      if (!t) return;
      if (rnd.chance(0.15)) run("task close", ["task", "close", taskArg(t), "--status", "ABORTED", "--notes", note()]);
      else run("task close", [...actor(), "task", "close", taskArg(t)]);
    },
    "task reopen": () => {
      const done = tasksWhere((t) => t.status === "COMPLETE" || t.status === "ABORTED");
      const t = done.length > 0 ? rnd.pick(done) : anyTask();
      if (t) run("task reopen", ["task", "reopen", taskArg(t), "--notes", note()]);
    },
    "task note": () => {
      const t = anyTask();
      if (t) run("task note", [...actor(), "task", "note", taskArg(t), note()]);
    },
    "task depend": () => {
      if (view.tasks.length < 2) return;
      run("task depend", ["task", "depend", taskArg(rnd.pick(view.tasks)), taskArg(rnd.pick(view.tasks))]);
    },
    "task undepend": () => {
      const withDeps = tasksWhere((t) => t.dependencies.length > 0);
      if (withDeps.length === 0) return;
      const t = rnd.pick(withDeps);
      run("task undepend", ["task", "undepend", taskArg(t), rnd.pick(t.dependencies)]);
    },
    "task priority": () => {
      const t = anyTask();
      if (t) run("task priority", ["task", "priority", taskArg(t), rnd.pick(PRIORITIES)]);
    },
    "epic create": () => {
      const r = run(
        "epic create",
        [
          "epic",
          "create",
          "--title",
          `epic ${rnd.pick(WORDS)}${rnd.pick(SPICE)} w${cfg.index}#${n}`,
          "--priority",
          rnd.pick(PRIORITIES),
        ],
        { json: true },
      );
      if (r.data) view.epics.push(r.data);
    },
    "epic link": () => {
      if (view.epics.length === 0 || view.tasks.length === 0) return;
      const ts = [rnd.pick(view.tasks), ...(rnd.chance(0.3) ? [rnd.pick(view.tasks)] : [])];
      run("epic link", ["epic", "link", rnd.pick(view.epics).id, ...new Set(ts.map((t) => t.id))]);
    },
    "review approve": () => {
      if (view.reviews.length === 0) return;
      run("review approve", [
        "review",
        "approve",
        rnd.pick(view.reviews).id,
        ...(rnd.chance(0.3) ? ["--notes", note()] : []),
      ]);
    },
    "review reject": () => {
      if (view.reviews.length === 0) return;
      run("review reject", ["review", "reject", rnd.pick(view.reviews).id, "--reason", note()]);
    },
    read: () => {
      const argv = rnd.pick([
        ["task", "next", "--role", role],
        ["task", "blocked"],
        ["task", "report"],
        ["dashboard"],
        ["task", "mine"],
        ["log", "-n", "5"],
        ["persona", "activity"],
      ]);
      // `task mine` needs an actor: the mission, or the persona by name.
      const who = argv[1] === "mine" ? (mission ? actor() : ["--as", name]) : [];
      run(`read: ${argv[0] === "task" ? argv.slice(0, 2).join(" ") : argv[0]}`, [...who, ...argv]);
    },
  };
  const weights = [
    ["task create", 14],
    ["task claim", 14],
    ["task update", 10],
    ["task close", 8],
    ["task handoff", 5],
    ["task unassign", 4],
    ["task reopen", 4],
    ["task note", 6],
    ["task depend", 4],
    ["task undepend", 3],
    ["task priority", 3],
    ["epic create", 2],
    ["epic link", 3],
    ["review approve", 5],
    ["review reject", 3],
    ["mission end", 2],
    ["mission start", 1],
    ["read", 5],
  ];
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const choose = () => {
    let x = rnd.next() * total;
    for (const [op, w] of weights) if ((x -= w) < 0) return op;
    return weights[0][0];
  };

  startMission();
  while (Date.now() < cfg.deadline) {
    n++;
    if (n - view.at >= 10) refresh();
    ops[choose()]();
  }
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Coordinator

function parseArgs(argv) {
  const o = {
    processes: 6,
    minutes: 2,
    seed: Date.now() % 1_000_000_007,
    keep: false,
    gc: null,
    packLoose: null,
    clones: null,
    transport: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--processes" || a === "-n") o.processes = Number(val());
    else if (a === "--minutes" || a === "-m") o.minutes = Number(val());
    else if (a === "--seed") o.seed = Number(val());
    else if (a === "--keep") o.keep = true;
    else if (a === "--gc") o.gc = "gc";
    else if (a === "--gc-prune") o.gc = "prune";
    else if (a === "--pack-loose") o.packLoose = Number(val());
    else if (a === "--clones") o.clones = Number(val());
    else if (a === "--transport") o.transport = val();
    else if (a === "--help" || a === "-h") {
      console.log(
        "usage: node scripts/soak.mjs [--processes N] [--minutes M] [--seed S] [--keep] [--gc | --gc-prune] [--pack-loose N]\n" +
          "       node scripts/soak.mjs --clones N [--transport file|http|ssh|all] [--minutes M] [--seed S] [--keep]",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(o.processes) || o.processes < 1) throw new Error("--processes must be a whole number ≥ 1");
  if (!(o.minutes > 0)) throw new Error("--minutes must be a positive number (fractions are fine)");
  if (!Number.isFinite(o.seed)) throw new Error("--seed must be a number");
  if (o.packLoose !== null && !(Number.isInteger(o.packLoose) && o.packLoose >= 0))
    throw new Error("--pack-loose must be a whole number ≥ 0");
  if (o.transport !== null && o.clones === null) o.clones = 8;
  if (o.clones !== null) {
    if (!Number.isInteger(o.clones) || o.clones < 2) throw new Error("--clones must be a whole number ≥ 2");
    o.transport ??= "file";
    if (!["file", "http", "ssh", "all"].includes(o.transport))
      throw new Error(`--transport must be file, http, ssh or all, not ${o.transport}`);
    if (o.gc) throw new Error("--gc and --gc-prune run in the one-repository mode, not with --clones");
  }
  return o;
}

function spawnWorker(cfg) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [import.meta.filename, "--worker", JSON.stringify(cfg)], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code, signal) => {
      try {
        resolvePromise(JSON.parse(out.trim().split("\n").at(-1)));
      } catch {
        resolvePromise({
          index: cfg.index,
          crashed: true,
          code,
          signal,
          stderr: err.slice(0, 3000),
          kinds: {},
          ok: 0,
          refused: 0,
          failed: 1,
          refusals: {},
          failures: [{ why: `worker ${cfg.index} crashed (exit ${code ?? signal})`, stderr: err.slice(0, 1500) }],
          created: [],
        });
      }
    });
  });
}

/** Runs git asynchronously (the gc loop shares the coordinator's event loop with the workers). */
function gitAsync(cwd, args) {
  return new Promise((resolvePromise) => {
    const child = spawn("git", args, { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolvePromise({ code, out }));
  });
}

/**
 * The gc loop of --gc / --gc-prune: git gc and git repack -ad (and git gc --prune=now) back to
 * back until `stop()` is called, checking after each run that the ref names a commit that is
 * there, and every fourth run that `git fsck --connectivity-only` is clean.
 */
function startGcLoop(dir, mode) {
  const steps =
    mode === "prune"
      ? [
          ["gc", "-q", "--prune=now"],
          ["repack", "-a", "-d", "-q"],
          ["gc", "-q"],
        ]
      : [
          ["gc", "-q"],
          ["repack", "-a", "-d", "-q"],
        ];
  const stats = { runs: {}, failures: [], missing: [], fsck: 0, fsckProblems: [], fsckRaces: 0 };
  let stopping = false;
  const done = (async () => {
    for (let i = 0; !stopping; i++) {
      const step = steps[i % steps.length];
      const name = step
        .filter((a) => a !== "-q")
        .join(" ")
        .replace("-a -d", "-ad");
      const r = await gitAsync(dir, step);
      stats.runs[name] = (stats.runs[name] ?? 0) + 1;
      if (r.code !== 0)
        stats.failures.length < 10 &&
          stats.failures.push(`git ${name}: exit ${r.code}: ${r.out.trim().split("\n").slice(-2).join(" | ")}`);
      const e = await gitAsync(dir, ["cat-file", "-e", `${REF}^{commit}`]);
      if (e.code !== 0) stats.missing.push(`after git ${name} #${stats.runs[name]}: ${REF} names a missing object`);
      if (i % 4 === 3) {
        stats.fsck++;
        const f = await gitAsync(dir, ["fsck", "--connectivity-only", "--no-dangling", "--no-progress"]);
        if (f.code !== 0 || f.out.trim() !== "") {
          // fsck lists the objects it has, then reads refs and reflogs: a commit a writer made in
          // between is "invalid" to it though it is there. Only an object still missing counts.
          const named = [...new Set(f.out.match(/\b[0-9a-f]{40}\b/g) ?? [])];
          const missing = [];
          for (const oid of named) if ((await gitAsync(dir, ["cat-file", "-e", oid])).code !== 0) missing.push(oid);
          if (missing.length > 0 || named.length === 0)
            stats.fsckProblems.length < 10 &&
              stats.fsckProblems.push(
                `${f.out.trim().split("\n").slice(0, 3).join(" | ")} (missing: ${missing.join(" ") || "?"})`,
              );
          else stats.fsckRaces++;
        }
      }
    }
  })();
  return {
    stats,
    stop: async () => {
      stopping = true;
      await done;
      return stats;
    },
  };
}

/** --gc modes: the ref deleted with git, then restored by doctor --recover with every record. */
function checkRecovery(dir) {
  const problems = [];
  const list = () => {
    const r = pantheon(dir, ["task", "list", "--json"]);
    return r.status === 0 ? JSON.parse(r.stdout).data.map((t) => `${t.id} ${t.title} ${t.status}`) : null;
  };
  const before = list();
  const tip = git(dir, "rev-parse", REF).trim();
  git(dir, "update-ref", "-d", REF);
  const plan = pantheon(dir, ["doctor", "--recover", "--json"]);
  let first = null;
  try {
    first = JSON.parse(plan.stdout).data.candidates[0]?.commit ?? null;
  } catch {
    problems.push(`doctor --recover --json printed no plan: ${plan.stderr.slice(0, 300)}`);
  }
  if (plan.status !== 1) problems.push(`doctor --recover without a terminal exited ${plan.status}, expected 1`);
  if (first !== tip) problems.push(`doctor --recover lists ${first} first, not the deleted tip ${tip}`);
  const restore = pantheon(dir, ["doctor", "--recover", tip]);
  if (restore.status !== 0)
    problems.push(`doctor --recover ${tip.slice(0, 12)} exited ${restore.status}: ${restore.stderr.slice(0, 300)}`);
  const after = list();
  if (JSON.stringify(after) !== JSON.stringify(before))
    problems.push(`after the recovery task list differs: ${before?.length} tasks before, ${after?.length} after`);
  const doctor = pantheon(dir, ["doctor", "--json"]);
  if (doctor.status !== 0)
    problems.push(`doctor after the recovery exited ${doctor.status}: ${doctor.stdout.slice(0, 300)}`);
  return { problems, tasks: before?.length ?? 0 };
}

async function coordinator() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`✗ ${e.message}\n  hint: node scripts/soak.mjs --processes 6 --minutes 2 --seed 1`);
    process.exit(2);
  }
  if (!existsSync(BUILT)) {
    console.error(`✗ ${BUILT} is missing\n  hint: node scripts/build.mjs`);
    process.exit(2);
  }
  if (o.clones !== null) return runMultiClone(o, ROOT);
  const started = Date.now();
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-soak-")));
  cpSync(join(ROOT, "dist"), join(root, "pkg", "dist"), { recursive: true });
  cpSync(join(ROOT, "templates"), join(root, "pkg", "templates"), { recursive: true });
  BIN = join(root, "pkg", "dist", "pantheon.js");
  const dir = join(root, "repo");
  const wt = join(root, "worktree");
  execFileSync("git", ["init", "-q", "-b", "main", dir], { env: ENV });
  git(dir, "commit", "-q", "--allow-empty", "-m", "soak root");
  const init = pantheon(dir, ["init", "--yes"]);
  if (init.status !== 0) throw new Error(`pantheon init --yes failed: ${init.stderr}`);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "pantheon init");
  git(dir, "worktree", "add", "-q", "-b", "soak-worktree", wt);

  console.log(
    `pantheon soak: ${o.processes} processes (${Math.ceil(o.processes / 2)} in ${dir}, ${Math.floor(o.processes / 2)} in the worktree ${wt}) for ${o.minutes} min, seed ${o.seed}`,
  );
  if (o.gc)
    console.log(
      `gc mode: a loop runs ${o.gc === "prune" ? "git gc --prune=now, git repack -ad and git gc" : "git gc and git repack -ad"} back to back beside the workers`,
    );
  const deadline = Date.now() + o.minutes * 60_000;
  const gcLoop = o.gc ? startGcLoop(dir, o.gc) : null;
  const workers = await Promise.all(
    Array.from({ length: o.processes }, (_, index) =>
      spawnWorker({ index, seed: o.seed, deadline, cwd: index % 2 === 0 ? dir : wt, bin: BIN, packLoose: o.packLoose }),
    ),
  );
  const gcStats = gcLoop ? await gcLoop.stop() : null;
  const runMs = Date.now() - started;

  // Aggregate.
  const kinds = {};
  const refusals = {};
  const failures = [];
  let ok = 0;
  let refused = 0;
  let failed = 0;
  let cmdMs = 0;
  for (const w of workers) {
    ok += w.ok;
    refused += w.refused;
    failed += w.failed;
    cmdMs += w.ms ?? 0;
    for (const [k, v] of Object.entries(w.kinds)) {
      const a = (kinds[k] ??= { run: 0, ok: 0, refused: 0, failed: 0 });
      for (const f of Object.keys(a)) a[f] += v[f];
    }
    for (const [c, v] of Object.entries(w.refusals)) refusals[c] = (refusals[c] ?? 0) + v;
    for (const f of w.failures) failures.push({ worker: w.index, ...f });
  }
  const warningsOnRead = failures.filter((f) => f.why === "warning on stderr").length;
  let inv;
  try {
    inv = checkInvariants(dir, workers, { bin: BIN });
  } catch (e) {
    // A state git itself cannot read (a tree lost to a prune) stops the checks: that is the finding.
    inv = {
      problems: [
        `the invariant checks could not run: ${String(e.message ?? e)
          .split("\n")
          .slice(0, 2)
          .join(" | ")}`,
      ],
      counts: {
        tasks: 0,
        missions: 0,
        activeMissions: 0,
        epics: 0,
        reviews: 0,
        commits: 0,
        dangling: 0,
        doctorWarnings: 0,
      },
      byStatus: {},
    };
  }
  if (gcStats) {
    const after = spawnSync("git", ["fsck", "--connectivity-only", "--no-dangling", "--no-progress"], {
      cwd: dir,
      env: ENV,
      encoding: "utf8",
    });
    if (after.status !== 0)
      inv.problems.push(
        `git fsck --connectivity-only after the run: exit ${after.status}: ${after.stderr.slice(0, 300)}`,
      );
    for (const f of gcStats.failures) inv.problems.push(`gc loop: ${f}`);
    for (const m of gcStats.missing.slice(0, 10)) inv.problems.push(`gc loop: ${m}`);
    for (const f of gcStats.fsckProblems) inv.problems.push(`gc loop fsck: ${f}`);
    if (o.packLoose !== null)
      console.log(`objects after the run: ${git(dir, "count-objects", "-v").trim().replace(/\n/g, ", ")}`);
    try {
      inv.problems.push(...checkRecovery(dir).problems);
    } catch (e) {
      inv.problems.push(`the recovery check could not run: ${String(e.message ?? e).split("\n")[0]}`);
    }
  }
  const total = ok + refused + failed;

  console.log("");
  console.log(
    `commands run: ${total} (${ok} succeeded, ${refused} refused, ${failed} failed), ${(total / (runMs / 1000)).toFixed(1)}/s, mean ${(cmdMs / Math.max(total, 1)).toFixed(0)} ms each`,
  );
  console.log("");
  console.log(`${pad("kind", 22)}${pad("run", 7)}${pad("ok", 7)}${pad("refused", 9)}failed`);
  for (const [k, v] of Object.entries(kinds).sort((a, b) => b[1].run - a[1].run))
    console.log(`${pad(k, 22)}${pad(v.run, 7)}${pad(v.ok, 7)}${pad(v.refused, 9)}${v.failed}`);
  console.log("");
  console.log("refusals by class:");
  for (const [c, v] of Object.entries(refusals).sort((a, b) => b[1] - a[1])) console.log(`  ${pad(v, 6)}${c}`);
  console.log("");
  console.log(
    `workers: ${workers.map((w) => `${w.name ?? `#${w.index}`} (${w.role ?? "?"}, ${w.cwd === wt ? "worktree" : "main"}): ${w.ok + w.refused + w.failed} cmds${w.crashed ? " CRASHED" : ""}`).join("; ")}`,
  );
  console.log(
    `at the end: ${inv.counts.tasks} tasks ${JSON.stringify(inv.byStatus)}, ${inv.counts.missions} missions (${inv.counts.activeMissions} ACTIVE), ${inv.counts.epics} epics, ${inv.counts.reviews} reviews; ${inv.counts.commits} commits on ${REF}; ${inv.counts.dangling} dangling objects (lost races); doctor warnings: ${inv.counts.doctorWarnings}`,
  );
  if (gcStats)
    console.log(
      `gc loop: ${Object.entries(gcStats.runs)
        .map(([k, v]) => `${v} × git ${k}`)
        .join(
          ", ",
        )}; ${gcStats.failures.length} failed; ref checked after each: ${gcStats.missing.length} time(s) missing; ${gcStats.fsck} fsck --connectivity-only, ${gcStats.fsckProblems.length} with a missing object (${gcStats.fsckRaces} named objects a writer made meanwhile, all present); then update-ref -d and doctor --recover`,
    );
  console.log(
    `wall time: ${((Date.now() - started) / 1000).toFixed(1)} s (workers ${(runMs / 1000).toFixed(1)} s, checks ${((Date.now() - started - runMs) / 1000).toFixed(1)} s)`,
  );
  console.log("");
  const invariants = [
    "doctor --json: no errors",
    "unique numbers and uids",
    "counters ≥ every number",
    "UNDERWAY tasks claimed under an existing mission",
    "epic status and progress derived consistently",
    "every record valid (no skipped-record warnings)",
    "every ✓ created task present",
    "history linear (no merges)",
    "git fsck --strict clean",
    ...(gcStats
      ? [
          "every gc run succeeded",
          "the ref never named a missing object",
          "fsck --connectivity-only clean during and after",
          "doctor --recover restores a deleted ref",
        ]
      : []),
  ];
  if (inv.problems.length === 0) console.log(`invariants: all ${invariants.length} hold (${invariants.join("; ")})`);
  else {
    console.log(`invariants: ${inv.problems.length} problem(s):`);
    for (const p of inv.problems) console.log(`  ✗ ${p}`);
  }
  if (failures.length > 0) {
    console.log("");
    console.log(`failures (first ${Math.min(failures.length, 10)} of ${failed + warningsOnRead}):`);
    for (const f of failures.slice(0, 10)) {
      console.log(`  ✗ worker ${f.worker} ${f.kind}: ${f.why} (exit ${f.status ?? "?"})`);
      if (f.argv) console.log(`    pantheon ${f.argv.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(" ")}`);
      for (const l of (f.stderr ?? "").trim().split("\n").slice(0, 6)) console.log(`    | ${l}`);
    }
  }
  const pass = failed === 0 && warningsOnRead === 0 && inv.problems.length === 0 && workers.every((w) => !w.crashed);
  console.log("");
  if (pass && !o.keep) rmSync(root, { recursive: true, force: true });
  else console.log(`repository kept at ${dir} (worktree ${wt})`);
  console.log(
    pass
      ? `PASS: ${total} commands by ${o.processes} processes in ${o.minutes} min (seed ${o.seed}), no failure, every invariant holds`
      : `FAIL: ${failed} failed command(s), ${warningsOnRead} read warning(s), ${inv.problems.length} broken invariant(s) (seed ${o.seed})`,
  );
  process.exit(pass ? 0 : 1);
}

if (process.argv[2] === "--worker") await worker(JSON.parse(process.argv[3]));
else await coordinator();
