// The invariants of one repository's state after a soak (scripts/soak.mjs), checked with the
// built CLI and git: shared by the one-repository mode and the multi-clone mode.
import { spawnSync } from "node:child_process";
import { ENV, git, REF, runPantheon, STACK } from "./soak-common.mjs";

export function epicDerived(tasks) {
  const total = tasks.filter((t) => t.status !== "ABORTED").length;
  const complete = tasks.filter((t) => t.status === "COMPLETE").length;
  let status = "TODO";
  if (tasks.length > 0 && tasks.every((t) => t.status === "COMPLETE" || t.status === "ABORTED") && complete > 0)
    status = "COMPLETE";
  else if (tasks.some((t) => !["TODO", "READY"].includes(t.status))) status = "UNDERWAY";
  return { status, complete, total, percent: total === 0 ? 0 : Math.round((100 * complete) / total) };
}

/**
 * The state's own invariants, read with the built CLI and git in one repository: doctor, unique
 * numbers and uids, counters, claims under existing missions, derived epic status, valid records,
 * the tasks the workers saw created, fsck. `merges` allows sync merges in the history (the
 * multi-clone mode); without it a merge on the ref is a finding (nothing syncs in one repository).
 */
export function checkInvariants(dir, workers, { bin, env = ENV, merges = false }) {
  const pantheon = (cwd, argv) => runPantheon(bin, cwd, argv, env);
  const problems = [];
  const check = (cond, what) => {
    if (!cond) problems.push(what);
    return cond;
  };
  const json = (argv, label = argv.join(" ")) => {
    const r = pantheon(dir, [...argv, "--json"]);
    check(!STACK.test(r.stderr), `${label}: stack trace on stderr`);
    if (!check(r.status === 0, `${label} exited ${r.status}: ${r.stderr.slice(0, 500)}`))
      return { data: null, stderr: r.stderr };
    return { data: JSON.parse(r.stdout).data, stderr: r.stderr };
  };

  // doctor
  const doctor = json(["doctor"]);
  const errors = (doctor.data?.findings ?? []).filter((f) => f.severity === "error");
  check(
    errors.length === 0,
    `doctor --json reports ${errors.length} error(s): ${errors
      .map((f) => `${f.code} ${f.subject}: ${f.message}`)
      .join("; ")
      .slice(0, 800)}`,
  );
  const warnings = (doctor.data?.findings ?? []).filter((f) => f.severity !== "error");

  // every record valid: lists warn of nothing
  const tasks = json(["task", "list"]);
  const missions = json(["mission", "list"]);
  const epics = json(["epic", "list"]);
  const reviews = json(["review", "list"]);
  for (const [label, r] of [
    ["task list", tasks],
    ["mission list", missions],
    ["epic list", epics],
    ["review list", reviews],
  ]) {
    check(!/skipped|corrupt|stray/i.test(r.stderr), `${label} --json warns: ${r.stderr.trim().slice(0, 500)}`);
  }
  const T = tasks.data ?? [];
  const M = missions.data ?? [];
  const E = epics.data ?? [];
  const R = reviews.data ?? [];

  // unique numbers and uids; counters ≥ every number (from git itself)
  const paths = git(dir, "ls-tree", "-r", "--name-only", REF).split("\n").filter(Boolean);
  const numbers = { tasks: [], epics: [], missions: [], reviews: [] };
  for (const p of paths) {
    const m = /^(tasks|epics|missions|reviews)\/(\d\d)\/(\d+)\.json$/.exec(p);
    if (m) {
      numbers[m[1]].push(Number(m[3]));
      check(Number(m[3]) % 100 === Number(m[2]), `${p} is in the wrong shard`);
    } else check(/^(project|counters)\.json$|^personas\/[^/]+\.json$/.test(p), `unexpected path on the ref: ${p}`);
  }
  const counters = JSON.parse(git(dir, "cat-file", "-p", `${REF}:counters.json`));
  for (const kind of Object.keys(numbers)) {
    const ns = numbers[kind];
    check(new Set(ns).size === ns.length, `${kind}: duplicate numbers`);
    const max = Math.max(0, ...ns);
    check(counters[kind] >= max, `counters.json ${kind} = ${counters[kind]} < highest number ${max}`);
  }
  check(new Set(T.map((t) => t.number)).size === T.length, "task list: duplicate numbers");
  check(T.length === numbers.tasks.length, `task list has ${T.length} tasks, the tree ${numbers.tasks.length}`);
  const blobs = git(dir, "ls-tree", "-r", REF)
    .split("\n")
    .filter((l) => /\t(tasks|epics|missions|reviews)\//.test(l))
    .map((l) => l.split(/\s+/)[2]);
  const batch = spawnSync("git", ["cat-file", "--batch"], {
    cwd: dir,
    env,
    input: `${blobs.join("\n")}\n`,
    maxBuffer: 512 << 20,
  });
  const uids = [];
  {
    const buf = batch.stdout;
    let at = 0;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      const [, , size] = buf.subarray(at, nl).toString().split(" ");
      const body = buf.subarray(nl + 1, nl + 1 + Number(size)).toString("utf8");
      at = nl + 1 + Number(size) + 1;
      try {
        uids.push(JSON.parse(body).uid);
      } catch {
        check(false, "a record blob is not JSON");
      }
    }
  }
  check(uids.length === blobs.length, `read ${uids.length} of ${blobs.length} record blobs`);
  check(new Set(uids).size === uids.length, "duplicate uids among records");

  // UNDERWAY tasks are claimed under a mission that exists and is the claimant's
  const missionById = new Map(M.map((m) => [m.id, m]));
  for (const t of T.filter((x) => x.status === "UNDERWAY")) {
    check(t.claimedBy !== null, `${t.id} is UNDERWAY without claimedBy`);
    const m = t.mission ? missionById.get(t.mission) : null;
    if (check(Boolean(m), `${t.id} is UNDERWAY without an existing mission (${t.mission})`))
      check(m.persona === t.claimedBy, `${t.id}: claimedBy ${t.claimedBy} but ${m.id} is ${m.persona}'s`);
  }
  for (const t of T.filter((x) => x.status === "COMPLETE"))
    check(Boolean(t.completedBy), `${t.id} is COMPLETE without completedBy`);
  const activeNames = M.filter((m) => m.status === "ACTIVE").map((m) => m.persona);
  check(
    new Set(activeNames).size === activeNames.length,
    `two ACTIVE missions share a persona name: ${activeNames.join(", ")}`,
  );

  // epic status derived consistently (epic show vs its tasks)
  for (const e of E) {
    const shown = json(["epic", "show", e.id]).data;
    if (!shown) continue;
    const linked = T.filter((t) => t.epic === e.id);
    const d = epicDerived(linked);
    const expected = e.aborted ? "ABORTED" : d.status;
    check(shown.status === expected, `${e.id}: status ${shown.status}, its ${linked.length} tasks say ${expected}`);
    check(
      shown.progress.complete === d.complete &&
        shown.progress.total === d.total &&
        shown.progress.percent === d.percent,
      `${e.id}: progress ${JSON.stringify(shown.progress)} vs tasks ${JSON.stringify(d)}`,
    );
  }

  // every task a worker was told was created is there, with its title
  const byNumber = new Map(T.map((t) => [t.number, t]));
  let lost = 0;
  for (const w of workers) for (const c of w.created ?? []) if (byNumber.get(c.number)?.title !== c.title) lost++;
  check(lost === 0, `${lost} task(s) reported created are missing or changed title`);

  // reviews reference tasks that exist
  for (const v of R)
    if (v.task)
      check(
        T.some((t) => t.id === v.task),
        `${v.id} points at a missing task ${v.task}`,
      );

  // history: no merges without sync; fsck clean
  if (!merges) {
    const found = git(dir, "rev-list", "--merges", REF).trim();
    check(found === "", `merge commits on ${REF} without any sync: ${found.split("\n").length}`);
  }
  const fsck = spawnSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, env, encoding: "utf8" });
  const complaints = `${fsck.stdout}\n${fsck.stderr}`
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^dangling (commit|tree|blob|tag) [0-9a-f]{40}$/.test(l));
  check(
    fsck.status === 0 && complaints.length === 0,
    `git fsck --strict: exit ${fsck.status}: ${complaints.slice(0, 5).join("; ")}`,
  );
  const dangling = `${fsck.stdout}\n${fsck.stderr}`.split("\n").filter((l) => /^dangling/.test(l)).length;
  const commits = Number(git(dir, "rev-list", "--count", REF).trim());

  return {
    problems: problems.filter(Boolean),
    counts: {
      tasks: T.length,
      missions: M.length,
      activeMissions: activeNames.length,
      epics: E.length,
      reviews: R.length,
      commits,
      dangling,
      doctorWarnings: warnings.length,
    },
    byStatus: T.reduce((acc, t) => ((acc[t.status] = (acc[t.status] ?? 0) + 1), acc), {}),
  };
}
