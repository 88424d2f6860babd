// The multi-clone mode of the soak (scripts/soak.mjs --clones N --transport file|http|ssh|all):
// a bare origin served over the transport, N clones each with one persona process, then every
// clone synced to one tip and the checks of scripts/soak-checks.mjs over what was recorded.
// The script's header documents what it does and what it checks.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  concurrentClaims,
  confirmDoubleWork,
  findDoubleWork,
  findLostTexts,
  findMissingCreated,
  findReviewProblems,
  findUndoneCloses,
  parseHistory,
} from "./soak-checks.mjs";
import { cleanEnv, pad, REF, runPantheon } from "./soak-common.mjs";
import { checkInvariants } from "./soak-state-checks.mjs";
import { printReport } from "./soak-multi-report.mjs";
import { makeOrigin, serveOrigin, TRANSPORTS } from "./soak-transports.mjs";

/** Roles by clone: the first two are engineers, so even two clones race for the same tasks. */
const ROLES = ["engineer", "engineer", "tester", "engineer", "tester", "engineer", "architect", "engineer"];
const MAX_FINAL_ROUNDS = 6;

function gitIn(cwd, env, ...args) {
  return execFileSync("git", args, {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 256 << 20,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function must(r, what) {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}: ${(r.stderr || r.stdout).trim().slice(0, 600)}`);
  return r;
}

/** Reads blobs by name (`<commit>:<path>` or ids) in one `git cat-file --batch`; a missing one is null. */
function catFiles(cwd, env, names) {
  if (names.length === 0) return [];
  const r = spawnSync("git", ["cat-file", "--batch"], {
    cwd,
    env,
    input: `${names.join("\n")}\n`,
    maxBuffer: 1 << 30,
  });
  const buf = r.stdout;
  const out = [];
  let at = 0;
  while (at < buf.length && out.length < names.length) {
    const nl = buf.indexOf(10, at);
    const header = buf.subarray(at, nl).toString();
    if (header.endsWith(" missing")) {
      out.push(null);
      at = nl + 1;
      continue;
    }
    const size = Number(header.split(" ")[2]);
    out.push(buf.subarray(nl + 1, nl + 1 + size).toString("utf8"));
    at = nl + 1 + size + 1;
  }
  return out;
}

function recordPath(kind, n) {
  return `${kind}/${String(n % 100).padStart(2, "0")}/${n}.json`;
}

/** The persona processes running, stopped with the servers when the soak is stopped by a signal. */
const personas = new Set();

function spawnPersona(cfg) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "soak-persona.mjs"), JSON.stringify(cfg)], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    personas.add(child);
    child.on("close", (code, signal) => {
      personas.delete(child);
      try {
        resolvePromise(JSON.parse(out.trim().split("\n").at(-1)));
      } catch {
        resolvePromise({
          clone: cfg.index,
          persona: cfg.persona,
          crashed: `exit ${code ?? signal}: ${err.slice(0, 1500)}`,
        });
      }
    });
  });
}

function readLogs(dir, n) {
  const records = [];
  for (let i = 0; i < n; i++) {
    const f = join(dir, `clone-${i}.ndjson`);
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, "utf8").split("\n")) if (line.trim() !== "") records.push(JSON.parse(line));
  }
  return records;
}

/** Sets up origin and clones over `transport`, runs the personas, converges, checks; returns { pass, line }. */
async function runTransport(transport, o, built) {
  const started = Date.now();
  const root = realpathSync(mkdtempSync(join(tmpdir(), `pantheon-soak-${transport}-`)));
  cpSync(join(built, "dist"), join(root, "pkg", "dist"), { recursive: true });
  cpSync(join(built, "templates"), join(root, "pkg", "templates"), { recursive: true });
  const bin = join(root, "pkg", "dist", "pantheon.js");
  const logs = join(root, "logs");
  mkdirSync(logs);
  const origin = makeOrigin(join(root, "srv"));
  const server = await serveOrigin(transport, origin, root);
  // A soak stopped by a signal still stops the sshd or HTTP server it started.
  const onSignal = (signal) => {
    for (const child of personas) child.kill("SIGTERM");
    void server.stop().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const env = cleanEnv(server.env);
  const clones = Array.from({ length: o.clones }, (_, i) => join(root, `clone-${i}`));
  const pantheon = (cwd, argv) => runPantheon(bin, cwd, argv, env);
  const problems = [];
  let body = null;
  try {
    console.log(
      `pantheon soak, multi-clone over ${transport}: ${o.clones} clones for ${o.minutes} min, seed ${o.seed}; origin ${server.url}${server.note ? ` (${server.note})` : ""}`,
    );
    // Clone 0 starts the state and publishes it with the committed project files; the others
    // clone and adopt it with `pantheon init`, as a teammate does.
    const setupStarted = Date.now();
    for (const [i, c] of clones.entries()) {
      gitIn(root, env, "clone", "-q", server.url, c);
      if (i === 0) {
        gitIn(c, env, "commit", "-q", "--allow-empty", "-m", "soak root");
        must(pantheon(c, ["init", "--yes"]), "pantheon init --yes in clone 0");
        gitIn(c, env, "add", "-A");
        gitIn(c, env, "commit", "-q", "-m", "pantheon init");
        gitIn(c, env, "push", "-q", "origin", "HEAD:refs/heads/main");
        must(pantheon(c, ["sync", "--json"]), "pantheon sync in clone 0");
      } else must(pantheon(c, ["init", "--yes"]), `pantheon init --yes in clone ${i}`);
    }
    const originTip = () => gitIn(origin, env, "rev-parse", REF).trim();
    const start = originTip();
    for (const [i, c] of clones.entries())
      if (gitIn(c, env, "rev-parse", REF).trim() !== start) throw new Error(`clone ${i} did not adopt origin's state`);
    console.log(
      `setup: ${o.clones} clones over ${transport}, state adopted, ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    const deadline = Date.now() + o.minutes * 60_000;
    const runStarted = Date.now();
    const tallies = await Promise.all(
      clones.map((cwd, index) =>
        spawnPersona({
          index,
          seed: o.seed,
          deadline,
          cwd,
          bin,
          env,
          persona: `Soak${"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[index % 26]}${Math.floor(index / 26) || ""}`,
          role: ROLES[index % ROLES.length],
          roles: [...new Set(clones.map((_, i) => ROLES[i % ROLES.length]))],
          log: join(logs, `clone-${index}.ndjson`),
        }),
      ),
    );
    const runMs = Date.now() - runStarted;
    for (const t of tallies) if (t.crashed) problems.push(`persona of clone ${t.clone} crashed: ${t.crashed}`);

    // Every clone syncs, one after another, until all and origin name one tip.
    const finalSyncs = [];
    let rounds = 0;
    let tips = [];
    const convergeStarted = Date.now();
    for (rounds = 1; rounds <= MAX_FINAL_ROUNDS; rounds++) {
      for (const [i, c] of clones.entries()) {
        const r = pantheon(c, ["sync", "--json"]);
        let data = null;
        try {
          data = r.status === 0 ? JSON.parse(r.stdout).data : null;
        } catch {
          // counted as a failed final sync below
        }
        finalSyncs.push({
          round: rounds,
          clone: i,
          status: data === null ? (r.status === 0 ? "no --json envelope" : r.status) : 0,
          t1: r.t1,
          stderr: r.stderr.slice(0, 400),
          conflicts: (data?.conflicts ?? []).map((x) => `${x.record} (${(x.fields ?? []).join(", ")})`),
          droppedClaims: (data?.droppedClaims ?? []).map((x) => x.message),
        });
      }
      tips = [...clones.map((c) => gitIn(c, env, "rev-parse", REF).trim()), originTip()];
      if (new Set(tips).size === 1) break;
    }
    rounds = Math.min(rounds, MAX_FINAL_ROUNDS);
    const convergeMs = Date.now() - convergeStarted;
    const oneTip = new Set(tips).size === 1;
    const badSyncs = finalSyncs.filter((s) => s.status !== 0);

    body = checkAll({ root, clones, origin, env, bin, logs, oneTip, tips });
    body.rounds = rounds;
    body.finalSyncs = finalSyncs;
    body.badSyncs = badSyncs;
    body.runMs = runMs;
    body.convergeMs = convergeMs;
    body.tallies = tallies;
  } catch (e) {
    problems.push(
      `the run stopped: ${String(e.message ?? e)
        .split("\n")
        .slice(0, 3)
        .join(" | ")}`,
    );
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await server.stop();
  }
  const pass = printReport({ transport, o, body, problems, started });
  if (pass && !o.keep) rmSync(root, { recursive: true, force: true });
  else console.log(`run kept at ${root} (clones clone-0…clone-${o.clones - 1}, origin srv/origin.git, logs/)`);
  return { transport, pass, summary: body?.summary ?? problems[0] ?? "" };
}

/** Every check over the logs, the converged state of clone 0 and its history, each clone's fsck. */
export function checkAll({ clones, origin, env, bin, logs, oneTip, tips }) {
  const records = readLogs(logs, clones.length);
  const c0 = clones[0];
  // The final state, raw (every record as stored, notes and reasons whole).
  const tree = gitIn(c0, env, "ls-tree", "-r", REF)
    .split("\n")
    .filter((l) => /\t(tasks|reviews)\//.test(l))
    .map((l) => ({ oid: l.split(/\s+/)[2], path: l.split("\t")[1] }));
  const blobs = catFiles(
    c0,
    env,
    tree.map((e) => e.oid),
  ).map((b) => JSON.parse(b));
  const tasks = blobs.filter((_, i) => tree[i].path.startsWith("tasks/"));
  const reviews = blobs.filter((_, i) => tree[i].path.startsWith("reviews/"));
  const finalTexts = [
    ...tasks.flatMap((t) => (t.notes ?? []).map((n) => n.text)),
    ...reviews.map((v) => v.reason).filter((x) => typeof x === "string"),
  ];

  // The history: claim and reopen commits named by the task's title at that commit.
  const history = parseHistory(gitIn(c0, env, "log", "--format=%H%x00%P%x00%B%x1e", REF));
  const named = history.filter((c) => (c.op === "task.claim" || c.op === "task.reopen") && c.records.length > 0);
  const taskNames = named.map((c) => {
    const rec = c.records.find((r) => r.startsWith("tasks/"));
    return rec ? `${c.commit}:${recordPath("tasks", Number(rec.slice(6)))}` : `${c.commit}:none`;
  });
  const titleAt = new Map();
  catFiles(c0, env, taskNames).forEach((b, i) => {
    if (b) titleAt.set(named[i].commit, JSON.parse(b).title);
  });
  const concurrent = concurrentClaims(history, (commit) => titleAt.get(commit));
  const reopens = new Map();
  for (const c of named.filter((x) => x.op === "task.reopen"))
    reopens.set(titleAt.get(c.commit), (reopens.get(titleAt.get(c.commit)) ?? 0) + 1);

  const failures = records.filter((r) => r.outcome === "failed");
  // Every overlap counts; the history says whether both claims landed (else a claim was lost too).
  const doubleWork = confirmDoubleWork(findDoubleWork(records), history, (commit) => titleAt.get(commit));
  const lost = findLostTexts(records, finalTexts).map((r) => {
    const v = r.review ? reviews.find((x) => `RVW-${String(x.number).padStart(3, "0")}` === r.review) : null;
    return { ...r, now: v ? { status: v.status, reviewer: v.reviewer, reason: v.reason } : null };
  });
  const reviewProblems = findReviewProblems({ tasks, reviews }, (title) => reopens.get(title) ?? 0);
  const undone = findUndoneCloses(records, tasks).map((r) => ({
    ...r,
    now: tasks.find((t) => t.title === r.task),
  }));
  const missing = findMissingCreated(
    records,
    tasks.map((t) => t.title),
  );
  const fsck = [...clones, origin].map((dir, i) => {
    const r = spawnSync("git", ["fsck", "--strict", "--no-progress", "--no-dangling"], {
      cwd: dir,
      env,
      encoding: "utf8",
    });
    const complaints = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => l.trim() !== "");
    return {
      where: i < clones.length ? `clone ${i}` : "origin",
      ok: r.status === 0 && complaints.length === 0,
      complaints,
    };
  });
  const state = checkInvariants(c0, [], { bin, env, merges: true });
  return {
    records,
    tasks,
    reviews,
    history,
    concurrent,
    failures,
    doubleWork,
    lost,
    reviewProblems,
    undone,
    missing,
    fsck,
    state,
    oneTip,
    tips,
  };
}

/** Runs the multi-clone soak over one transport or all three, one after another; exits 0 on PASS, 1 on FAIL. */
export async function runMultiClone(o, built) {
  const transports = o.transport === "all" ? TRANSPORTS : [o.transport];
  const results = [];
  for (const t of transports) {
    results.push(await runTransport(t, o, built));
    console.log("");
  }
  if (results.length > 1) {
    console.log("by transport:");
    for (const r of results) console.log(`  ${r.pass ? "PASS" : "FAIL"} ${pad(r.transport, 5)} ${r.summary}`);
  }
  const pass = results.every((r) => r.pass);
  console.log(
    pass
      ? `PASS: ${transports.join(", ")}`
      : `FAIL: ${results
          .filter((r) => !r.pass)
          .map((r) => r.transport)
          .join(", ")}`,
  );
  process.exit(pass ? 0 : 1);
}
