// The multi-clone soak's report (scripts/soak-multi.mjs): the counts, each invariant ✓ or ✗, the
// evidence of each violation, and the PASS or FAIL line of one transport.
import { claimPublishCounts, reasonClass } from "./soak-checks.mjs";
import { pad } from "./soak-common.mjs";

function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const when = (t, t0) => `+${((t - t0) / 1000).toFixed(1)}s`;

/** Prints the report of one transport's run; returns whether it passed. */
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
    `final convergence: ${body.rounds} round(s) of ${o.clones} syncs in ${(body.convergeMs / 1000).toFixed(1)} s, ${body.badSyncs.length} failed, ${body.finalSyncs.reduce((s, x) => s + x.droppedClaims.length, 0)} dropped claim(s) and ${body.finalSyncs.reduce((s, x) => s + x.conflicts.length, 0)} conflict(s) reported; ${body.oneTip ? "one tip" : `${new Set(body.tips).size} different tips`}`,
  );
  const byStatus = (xs) => xs.reduce((a, x) => ((a[x.status] = (a[x.status] ?? 0) + 1), a), {});
  const claimCommits = body.history.filter((c) => c.op === "task.claim").length;
  console.log(
    `at the end: ${body.tasks.length} tasks ${JSON.stringify(byStatus(body.tasks))}, ${body.reviews.length} reviews ${JSON.stringify(byStatus(body.reviews))}; ${body.history.length} commits (${body.history.filter((c) => c.parents.length > 1).length} merges, ${claimCommits} claims; ${body.concurrent.size} task(s) claimed by two personas on histories that did not know of each other)`,
  );

  console.log(
    `closes reported ✓ (COMPLETE) that a merge undid: ${body.undone.length} (counted, not an invariant: the published claim wins, DESIGN §3.3)`,
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
  // What the approver's own clone was told when its value lost (during the run or at the end).
  const conflictsOn = (review, clone) =>
    review
      ? [
          ...syncs.map((s) => ({ clone: s.clone, t1: s.t1, conflicts: s.sync.conflicts, final: false })),
          ...body.finalSyncs.map((s) => ({ clone: s.clone, t1: s.t1, conflicts: s.conflicts, final: true })),
        ]
          .filter((s) => s.clone === clone)
          .flatMap((s) => s.conflicts.filter((c) => c.startsWith(`${review} `)).map((conflict) => ({ ...s, conflict })))
      : [];
  show("texts reported ✓ and lost", body.lost, (r) => [
    `✗ ${r.kind} by ${r.persona} (clone ${r.clone}) at ${when(r.t1, t0)}${r.review ? ` of ${r.review}` : ""}${r.published === false ? " (said not published)" : r.stderrUnpublished ? ' (stderr: "not published yet")' : ""}: "${r.text}"`,
    ...(r.now ? [`  ${r.review} now ${r.now.status} by ${r.now.reviewer}, reason "${r.now.reason}"`] : []),
    ...conflictsOn(r.review, r.clone).map(
      (s) =>
        `  ${s.final ? "the final sync" : "a sync"} of clone ${s.clone} at ${when(s.t1, t0)} reported a conflict in ${s.conflict} (in words: "…'s value kept; yours is in its notes")`,
    ),
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
  show("closes that a merge undid (counted)", body.undone, (r) => [
    `! "${r.task}" closed by ${r.persona} (clone ${r.clone}) at ${when(r.t1, t0)}, now ${r.now?.status} held by ${r.now?.claimedBy}`,
  ]);
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
