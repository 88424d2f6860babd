// The multi-clone mode of the soak (scripts/soak.mjs --clones N --transport file|http|ssh|all):
// a bare origin served over the transport, N clones each with one persona process, then every
// clone synced to one tip and the checks of scripts/soak-checks.mjs over what was recorded.
// The script's header documents what it does and what it checks.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  claimPublishCounts,
  concurrentClaims,
  confirmDoubleWork,
  findDoubleWork,
  findLostTexts,
  findMissingCreated,
  findReviewProblems,
  parseHistory,
  reasonClass,
} from "./soak-checks.mjs";
import { cleanEnv, pad, REF, runPantheon } from "./soak-common.mjs";
import { checkInvariants } from "./soak-state-checks.mjs";
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
    child.on("close", (code, signal) => {
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
        finalSyncs.push({ round: rounds, clone: i, status: r.status, ms: r.ms, stderr: r.stderr.slice(0, 400) });
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
    await server.stop();
  }
  const pass = printReport({ transport, o, body, problems, started });
  if (pass && !o.keep) rmSync(root, { recursive: true, force: true });
  else console.log(`run kept at ${root} (clones clone-0…clone-${o.clones - 1}, origin srv/origin.git, logs/)`);
  return { transport, pass, summary: body?.summary ?? problems[0] ?? "" };
}

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
    missing,
    fsck,
    state,
    oneTip,
    tips,
  };
}

function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const when = (t, t0) => `+${((t - t0) / 1000).toFixed(1)}s`;

export function printReport({ transport, o, body, problems, started }) {
  const wall = ((Date.now() - started) / 1000).toFixed(1);
  if (!body) {
    for (const p of problems) console.log(`  ✗ ${p}`);
    console.log(`FAIL (${transport}): ${problems.length} problem(s) (seed ${o.seed}); wall ${wall} s`);
    return false;
  }
  const R = body.records;
  const t0 = Math.min(...R.map((r) => r.t0));
  const ok = R.filter((r) => r.outcome === "ok").length;
  const refused = R.filter((r) => r.outcome === "refused").length;
  console.log("");
  console.log(
    `commands run: ${R.length} (${ok} succeeded, ${refused} refused, ${body.failures.length} failed) in ${(body.runMs / 1000).toFixed(1)} s, ${(R.length / (body.runMs / 1000)).toFixed(1)}/s`,
  );
  console.log("");
  console.log(
    `${pad("kind", 22)}${pad("run", 6)}${pad("ok", 6)}${pad("refused", 9)}${pad("failed", 8)}${pad("p50 ms", 8)}p90 ms`,
  );
  const kinds = new Map();
  for (const r of R) kinds.set(r.kind, [...(kinds.get(r.kind) ?? []), r]);
  for (const [k, rs] of [...kinds].sort((a, b) => b[1].length - a[1].length)) {
    const ms = rs.map((r) => r.t1 - r.t0);
    const n = (x) => rs.filter((r) => r.outcome === x).length;
    console.log(
      `${pad(k, 22)}${pad(rs.length, 6)}${pad(n("ok"), 6)}${pad(n("refused"), 9)}${pad(n("failed"), 8)}${pad(quantile(ms, 0.5), 8)}${quantile(ms, 0.9)}`,
    );
  }
  const classes = {};
  for (const r of R.filter((x) => x.outcome === "refused")) {
    const c = `${r.kind}: ${r.class}`;
    classes[c] = (classes[c] ?? 0) + 1;
  }
  console.log("");
  console.log("refusals by class:");
  for (const [c, v] of Object.entries(classes).sort((a, b) => b[1] - a[1])) console.log(`  ${pad(v, 6)}${c}`);
  const claims = claimPublishCounts(R);
  console.log("");
  console.log(
    `claims: ${claims.run} run, ${claims.ok} succeeded (in --json: ${claims.published} said published, ${claims.notPublished} said not published, ${claims.notSaid} said nothing, of which ${claims.notSaidButWarned} warned "not published yet" on stderr), ${claims.refused} refused, ${claims.failed} failed; ${claims.overBudget} of ${claims.ok} took over the 5 s publishing budget; time p50 ${claims.p50} ms, p90 ${claims.p90} ms, max ${claims.max} ms (a read, task next, p50 ${quantile(
      R.filter((r) => r.kind === "read: task next").map((r) => r.t1 - r.t0),
      0.5,
    )} ms here)`,
  );
  for (const [c, v] of Object.entries(claims.unpublished).sort((a, b) => b[1] - a[1]))
    console.log(`  ${pad(v, 6)}not published: ${c}`);
  const pubs = {};
  for (const r of R.filter(
    (x) => x.outcome === "ok" && x.kind !== "task claim" && (x.published !== null || x.stderrUnpublished),
  )) {
    const c =
      r.published === true
        ? `${r.kind}: published`
        : r.published === false
          ? `${r.kind}: not published (${reasonClass(r.publishedWhy ?? null)})`
          : `${r.kind}: not published, on stderr only (${reasonClass(r.stderrWhy ?? null)})`;
    pubs[c] = (pubs[c] ?? 0) + 1;
  }
  for (const [c, v] of Object.entries(pubs).sort((a, b) => b[1] - a[1])) console.log(`  ${pad(v, 6)}${c}`);
  const syncs = R.filter((r) => r.kind === "sync" && r.outcome === "ok");
  const dropped = syncs.flatMap((r) => r.sync.droppedClaims);
  const conflicts = syncs.flatMap((r) => r.sync.conflicts);
  console.log(
    `syncs during the run: ${R.filter((r) => r.kind === "sync").length} (${syncs.length} ok), ${syncs.reduce((s, r) => s + (r.sync.attempts ?? 0), 0)} attempts; they reported ${dropped.length} dropped claim(s), ${conflicts.length} conflict(s) (${conflicts.filter((c) => c.startsWith("RVW-")).length} on reviews), ${syncs.reduce((s, r) => s + r.sync.renumbered, 0)} renumbering(s)`,
  );
  console.log(
    `final convergence: ${body.rounds} round(s) of ${o.clones} syncs in ${(body.convergeMs / 1000).toFixed(1)} s, ${body.badSyncs.length} failed; ${body.oneTip ? "one tip" : `${new Set(body.tips).size} different tips`}`,
  );
  const byStatus = (xs) => xs.reduce((a, x) => ((a[x.status] = (a[x.status] ?? 0) + 1), a), {});
  const claimCommits = body.history.filter((c) => c.op === "task.claim").length;
  console.log(
    `at the end: ${body.tasks.length} tasks ${JSON.stringify(byStatus(body.tasks))}, ${body.reviews.length} reviews ${JSON.stringify(byStatus(body.reviews))}; ${body.history.length} commits (${body.history.filter((c) => c.parents.length > 1).length} merges, ${claimCommits} claims; ${body.concurrent.size} task(s) claimed by two personas on histories that did not know of each other)`,
  );

  const most = Math.max(0, ...body.doubleWork.map((d) => d.most));
  const checks = [
    [
      body.failures.length === 0 && problems.length === 0,
      `0 failed commands other than documented refusals: ${body.failures.length}`,
    ],
    [
      body.doubleWork.length === 0,
      `0 tasks worked by two personas at once, both told they hold it: ${body.doubleWork.length}${most > 0 ? ` (up to ${most} personas at once)` : ""}`,
    ],
    [body.lost.length === 0, `0 texts reported ✓ (review notes and reasons, task notes) lost: ${body.lost.length}`],
    [
      body.reviewProblems.length === 0,
      `review requests follow their claims (no PENDING request on a task someone else holds or that left REVIEW, no task approved more often than completed): ${body.reviewProblems.length}`,
    ],
    [
      body.oneTip && body.badSyncs.length === 0,
      `one tip across ${o.clones} clones and origin after ${body.rounds} sync round(s)`,
    ],
    [
      body.fsck.every((f) => f.ok),
      `git fsck --strict clean in every clone and origin: ${body.fsck.filter((f) => !f.ok).length} not`,
    ],
    [body.missing.length === 0, `every task created with ✓ present: ${body.missing.length} missing`],
    [
      body.state.problems.length === 0,
      `the state's invariants (doctor, numbers, uids, counters, claims, epics): ${body.state.problems.length} problem(s)`,
    ],
  ];
  console.log("");
  console.log("invariants:");
  for (const [good, what] of checks) console.log(`  ${good ? "✓" : "✗"} ${what}`);
  for (const p of problems) console.log(`  ✗ ${p}`);

  const show = (title, xs, fmt, n = 8) => {
    if (xs.length === 0) return;
    console.log("");
    console.log(`${title} (${Math.min(n, xs.length)} of ${xs.length}):`);
    for (const x of xs.slice(0, n)) for (const l of fmt(x)) console.log(`  ${l}`);
  };
  show("failed commands", body.failures, (f) => [
    `✗ clone ${f.clone} ${f.persona} ${f.kind}: ${f.why} (exit ${f.exit ?? f.signal}${f.code ? `, ${f.code}` : ""}) at ${when(f.t0, t0)}`,
    `  pantheon ${f.argv.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(" ")}`,
    ...(f.stderr ?? "")
      .trim()
      .split("\n")
      .slice(0, 4)
      .map((l) => `  | ${l}`),
  ]);
  show("tasks worked by two personas at once", body.doubleWork, (d) => [
    `✗ "${d.task}": ${d.personas.join(", ")}`,
    ...d.episodes.map(
      (e) =>
        `  ${e.persona} (clone ${e.clone}): claim told ${when(e.told, t0)} after ${e.claimMs} ms (published in --json: ${e.published ?? "not said"}${e.stderrUnpublished ? '; stderr: "not published yet"' : ""}), ${e.move} ${when(e.moved, t0)}`,
    ),
    d.confirmed
      ? `  history: task.claim commits by ${d.inHistory.join(", ")}`
      : `  history: task.claim commits only by ${d.inHistory.join(", ") || "nobody"}: a claim told ✓ is not in the history at all`,
    ...d.concurrent.map(
      ([a, b]) =>
        `  history: claim ${a.commit.slice(0, 10)} by ${a.actor} and ${b.commit.slice(0, 10)} by ${b.actor}, neither contains the other`,
    ),
  ]);
  show("texts reported ✓ and lost", body.lost, (r) => [
    `✗ ${r.kind} by ${r.persona} (clone ${r.clone}) at ${when(r.t1, t0)}${r.review ? ` of ${r.review}` : ""}${r.published === false ? " (said not published)" : r.stderrUnpublished ? ' (stderr: "not published yet")' : ""}: "${r.text}"`,
    ...(r.now ? [`  ${r.review} now ${r.now.status} by ${r.now.reviewer}, reason "${r.now.reason}"`] : []),
  ]);
  const rvw = (n) => `RVW-${String(n).padStart(3, "0")}`;
  const describe = {
    "pending-other-owner": (p) =>
      `${rvw(p.review)} PENDING, requested by ${p.by}, on "${p.task}", now held by ${p.owner}`,
    "pending-not-in-review": (p) => `${rvw(p.review)} PENDING, requested by ${p.by}, on "${p.task}", now ${p.status}`,
    "pending-missing-task": (p) => `${rvw(p.review)} PENDING on task number ${p.task}, which does not exist`,
    "pending-twice": (p) => `"${p.task}" has ${p.reviews.length} PENDING requests: ${p.reviews.map(rvw).join(", ")}`,
    "approved-too-often": (p) =>
      `"${p.task}" has ${p.approvals} APPROVED reviews (by ${p.reviewers.join(", ")}), at most ${p.allowed} possible`,
  };
  show("review requests that outlived their claim", body.reviewProblems, (p) => [`✗ ${describe[p.kind](p)}`]);
  show("tasks created with ✓ and missing", body.missing, (r) => [`✗ "${r.title}" by ${r.persona} (clone ${r.clone})`]);
  show("state invariants", body.state.problems, (p) => [`✗ ${p}`]);
  show(
    "fsck",
    body.fsck.filter((f) => !f.ok),
    (f) => [`✗ ${f.where}: ${f.complaints.slice(0, 3).join(" | ")}`],
  );
  show("final syncs that failed", body.badSyncs, (s) => [
    `✗ round ${s.round} clone ${s.clone}: exit ${s.status}: ${s.stderr.trim()}`,
  ]);

  const pass = checks.every(([good]) => good) && problems.length === 0;
  body.summary = `${R.length} commands, ${body.failures.length} failed, ${body.doubleWork.length} double-worked, ${body.lost.length} texts lost, ${body.reviewProblems.length} review-request problems, claims over budget ${claims.overBudget}/${claims.ok}`;
  console.log("");
  console.log(
    `wall time: ${wall} s (run ${(body.runMs / 1000).toFixed(1)} s, convergence ${(body.convergeMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    pass
      ? `PASS (${transport}): ${R.length} commands by ${o.clones} clones in ${o.minutes} min (seed ${o.seed}), every invariant holds`
      : `FAIL (${transport}): ${checks.filter(([g]) => !g).length + problems.length} invariant(s) broken (seed ${o.seed}): ${body.summary}`,
  );
  return pass;
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
