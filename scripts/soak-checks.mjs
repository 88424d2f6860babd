// The multi-clone soak's checks (scripts/soak-multi.mjs), as pure functions over what it recorded:
// one outcome record per command a persona ran, the final state's records and the history of
// refs/coordination/main. No I/O here, so test/unit/scripts/soak-checks.test.ts can feed them
// fabricated logs and see each violation found.
import { messageClass, STACK } from "./soak-common.mjs";

/** Exit 1 with one of these codes is a documented refusal (docs/errors.md): the command was valid, the state said no. */
export const DOMAIN_REFUSALS = new Set(["E_NOT_FOUND", "E_INVALID_TRANSITION", "E_CONFLICT", "E_RENUMBERED"]);

/**
 * Exit 3 is a refusal only where the product documents it for that command: `sync` ("the remote
 * kept moving, or another sync holds the clone's sync lock", E_SYNC). The commands that publish
 * by themselves never fail for the network (docs/sync.md: "Nothing there fails the command").
 */
export const CONTENTION_DOCUMENTED = { sync: new Set(["E_SYNC"]) };

/** DESIGN §3.5: a racing command spends about 5 s on the network before it lands locally only. */
export const PUBLISH_BUDGET_MS = 5_000;

/** The kinds after which a persona has moved its claimed task on. */
const MOVES = new Set(["task update", "task close"]);

/**
 * One command's outcome from its exit code and output (every command of the multi-clone mode
 * runs with --json): "ok", "refused" (a documented refusal) or "failed", with the error code
 * and message, and the parsed envelope of a success.
 */
export function classifyOutcome({ kind, status, signal = null, stdout, stderr, spawnError = null }) {
  const failed = (why, code = null, message = null) => ({ outcome: "failed", why, code, message, envelope: null });
  if (spawnError) return failed(`spawn error: ${spawnError}`);
  if (STACK.test(stderr) || STACK.test(stdout)) return failed("stack trace");
  if (/this is a bug in pantheon|"E_INTERNAL"/.test(stderr)) return failed("internal error", "E_INTERNAL");
  if (status === 0) {
    let envelope;
    try {
      envelope = JSON.parse(stdout);
    } catch {
      return failed("--json stdout is not one JSON document");
    }
    if (envelope?.schemaVersion !== 1 || typeof envelope.kind !== "string") return failed("--json envelope");
    return { outcome: "ok", why: null, code: null, message: null, envelope };
  }
  if (status === null) return failed(`killed by ${signal}`);
  let error = null;
  try {
    error = JSON.parse(stderr.trim().split("\n").at(-1)).error ?? null;
  } catch {
    // not a JSON error: a failure below
  }
  if (!error || typeof error.code !== "string") return failed(`exit ${status} without a --json error on stderr`);
  if (stdout !== "") return failed(`exit ${status} with output on stdout`, error.code, error.message);
  if (status === 1 && DOMAIN_REFUSALS.has(error.code))
    return { outcome: "refused", why: null, code: error.code, message: error.message, envelope: null };
  if (status === 3 && CONTENTION_DOCUMENTED[kind]?.has(error.code))
    return { outcome: "refused", why: null, code: error.code, message: error.message, envelope: null };
  if (status === 2) return failed("usage error (exit 2) for a valid command", error.code, error.message);
  if (status === 3) return failed(`exit 3 (${error.code}) is not documented for ${kind}`, error.code, error.message);
  return failed(`exit ${status} (${error.code}) is not a domain refusal`, error.code, error.message);
}

/**
 * Whether a successful command says it was published, as DESIGN §3.5 asks: `published` in the
 * --json envelope (at the top or in data: true, false, or an object with a boolean
 * `published`/`ok` and a reason), else null (not said). Beside it, the product's stderr line
 * "not published yet (why): pantheon sync", kept apart: stderr is chatter to a --json reader,
 * so a claim that only warned there did not report published:false in its result.
 */
export function publishOutcome(envelope, stderr) {
  const m = /not published yet(?: \((.*)\))?: pantheon sync/.exec(stderr);
  const warned = { stderrUnpublished: m !== null, stderrWhy: m ? (m[1] ?? null) : null };
  for (const v of [envelope?.published, envelope?.data?.published]) {
    if (typeof v === "boolean") return { published: v, why: v ? null : (envelope.reason ?? null), ...warned };
    if (v && typeof v === "object") {
      const b = typeof v.published === "boolean" ? v.published : typeof v.ok === "boolean" ? v.ok : null;
      if (b !== null) return { published: b, why: b ? null : String(v.reason ?? v.why ?? "") || null, ...warned };
    }
  }
  return { published: null, why: null, ...warned };
}

/** A published:false reason as a class (ids and numbers replaced), for counting. */
export function reasonClass(why) {
  return why === null ? "(no reason given)" : messageClass(why);
}

/**
 * Claim episodes: a persona was **told it holds** a task when its `task claim` exited 0 and did
 * not report published:false in its --json result (published:true, or nothing said there; a
 * "not published yet" line on stderr alone does not excuse it); it **moved it on** with a later
 * `task update` or `task close` of that task that exited 0, before its own next claim of it. The
 * episode runs from the claim's answer (t1) to that move's answer (t1). Claims never moved on,
 * and claims told "not published yet", make no episode: the persona knew, or did nothing with it.
 * Tasks are named by title (unique per run), since a sync may renumber them.
 */
export function claimEpisodes(records) {
  const byPersona = new Map();
  for (const r of records) {
    if (r.outcome !== "ok" || !r.task) continue;
    if (r.kind !== "task claim" && !MOVES.has(r.kind)) continue;
    const key = `${r.persona}\u0000${r.task}`;
    if (!byPersona.has(key)) byPersona.set(key, []);
    byPersona.get(key).push(r);
  }
  const episodes = [];
  for (const rs of byPersona.values()) {
    rs.sort((a, b) => a.t0 - b.t0);
    for (let i = 0; i < rs.length; i++) {
      const claim = rs[i];
      if (claim.kind !== "task claim" || claim.published === false) continue;
      // rs holds only this persona's claims and moves of the task: the next one is its first move
      // after this claim, unless it is its own next claim.
      const move = rs[i + 1];
      if (!move || move.kind === "task claim") continue;
      episodes.push({
        task: claim.task,
        persona: claim.persona,
        clone: claim.clone,
        claimSeq: claim.seq,
        told: claim.t1,
        published: claim.published,
        stderrUnpublished: claim.stderrUnpublished === true,
        claimMs: claim.t1 - claim.t0,
        move: move.kind,
        moveSeq: move.seq,
        moved: move.t1,
      });
    }
  }
  return episodes;
}

/**
 * Tasks worked by two personas at once, both told they hold it: two claim episodes of one task
 * by different personas whose intervals overlap. `most` is the largest number of personas whose
 * episodes overlap at one moment.
 */
export function findDoubleWork(records) {
  const byTask = new Map();
  for (const e of claimEpisodes(records)) {
    if (!byTask.has(e.task)) byTask.set(e.task, []);
    byTask.get(e.task).push(e);
  }
  const found = [];
  for (const [task, eps] of byTask) {
    const overlapping = new Set();
    for (let i = 0; i < eps.length; i++)
      for (let j = i + 1; j < eps.length; j++) {
        const [a, b] = [eps[i], eps[j]];
        if (a.persona !== b.persona && a.told < b.moved && b.told < a.moved) overlapping.add(a).add(b);
      }
    if (overlapping.size === 0) continue;
    const list = [...overlapping].sort((a, b) => a.told - b.told);
    // Sweep the episodes' starts and ends for the most personas at one moment.
    const points = list.flatMap((e) => [
      [e.told, 1, e.persona],
      [e.moved, -1, e.persona],
    ]);
    points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const live = new Map();
    let most = 0;
    for (const [, d, p] of points) {
      live.set(p, (live.get(p) ?? 0) + d);
      most = Math.max(most, [...live.values()].filter((v) => v > 0).length);
    }
    found.push({ task, episodes: list, personas: [...new Set(list.map((e) => e.persona))], most });
  }
  return found.sort((a, b) => a.episodes[0].told - b.episodes[0].told);
}

/**
 * Parses `git log --format=%H%x00%P%x00%B%x1e`: each commit with its parents and its Pantheon
 * trailers (op, actor, records).
 */
export function parseHistory(text) {
  const commits = [];
  for (const chunk of text.split("\u001e")) {
    const c = chunk.replace(/^\n+/, "");
    if (c.trim() === "") continue;
    const [commit, parents, body = ""] = c.split("\u0000");
    const trailer = (name) => {
      const m = new RegExp(`^${name}: (.*)$`, "m").exec(body);
      return m ? m[1].trim() : null;
    };
    commits.push({
      commit,
      parents: parents.trim() === "" ? [] : parents.trim().split(" "),
      op: trailer("Pantheon-Op"),
      actor: trailer("Pantheon-Actor"),
      records: (trailer("Pantheon-Records") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  }
  return commits;
}

/** Whether `a` is an ancestor of `b` (or `b` itself) in a history of {commit, parents}. */
export function isAncestor(parentsOf, a, b) {
  const seen = new Set();
  const stack = [b];
  while (stack.length > 0) {
    const c = stack.pop();
    if (c === a) return true;
    if (seen.has(c)) continue;
    seen.add(c);
    for (const p of parentsOf.get(c) ?? []) stack.push(p);
  }
  return false;
}

/**
 * The history's evidence: `task.claim` commits on one task by different actors where neither
 * commit contains the other: both claims were made on states that did not know of each other
 * (one of them was dropped by the merge that joined them). `taskOf(commit)` names the claimed
 * task (its title at that commit).
 */
export function concurrentClaims(history, taskOf) {
  const parentsOf = new Map(history.map((c) => [c.commit, c.parents]));
  const byTask = new Map();
  for (const c of history) {
    if (c.op !== "task.claim") continue;
    const task = taskOf(c.commit);
    if (!task) continue;
    if (!byTask.has(task)) byTask.set(task, []);
    byTask.get(task).push(c);
  }
  const out = new Map();
  for (const [task, claims] of byTask) {
    const pairs = [];
    for (let i = 0; i < claims.length; i++)
      for (let j = i + 1; j < claims.length; j++) {
        const [a, b] = [claims[i], claims[j]];
        if (a.actor === b.actor) continue;
        if (!isAncestor(parentsOf, a.commit, b.commit) && !isAncestor(parentsOf, b.commit, a.commit))
          pairs.push([
            { commit: a.commit, actor: a.actor },
            { commit: b.commit, actor: b.actor },
          ]);
      }
    if (pairs.length > 0) out.set(task, pairs);
  }
  return out;
}

/**
 * The double-worked tasks the final history confirms: each overlapping pair of personas of
 * `findDoubleWork` whose `task.claim` commits on that task (Pantheon-Op and Pantheon-Actor
 * trailers, the task named by its title at the commit) are both in the history, i.e. both claims
 * landed in the shared state. `concurrent` lists the pairs where neither claim commit contains
 * the other (each was made without knowing of the other, and a merge kept one).
 */
export function confirmDoubleWork(found, history, taskOf) {
  const actors = new Map();
  for (const c of history) {
    if (c.op !== "task.claim") continue;
    const task = taskOf(c.commit);
    if (!task) continue;
    if (!actors.has(task)) actors.set(task, new Set());
    actors.get(task).add(c.actor);
  }
  const concurrent = concurrentClaims(history, taskOf);
  return found.map((d) => {
    const inHistory = d.personas.filter((p) => actors.get(d.task)?.has(p));
    return {
      ...d,
      inHistory,
      confirmed: inHistory.length >= 2,
      concurrent: (concurrent.get(d.task) ?? []).filter(
        ([a, b]) => d.personas.includes(a.actor) && d.personas.includes(b.actor),
      ),
    };
  });
}

/**
 * Texts a command reported ✓ for (a review's --notes or --reason, a task note, update --notes)
 * that the final state no longer holds: each text carries a unique tag, looked for in every
 * task note and every review's reason (so a text kept inside a conflict note, escaped, counts).
 */
export function findLostTexts(records, finalTexts) {
  const lost = [];
  for (const r of records) {
    if (r.outcome !== "ok" || !r.textTag) continue;
    if (!finalTexts.some((t) => t.includes(r.textTag))) lost.push(r);
  }
  return lost;
}

/**
 * Review requests that outlived their claim: a PENDING task_completion review whose task is not
 * in REVIEW, or is claimed by someone other than the requester, or a second PENDING one of a task;
 * and a task with more APPROVED task_completion reviews than it could have completed (one, plus
 * one per reopen in the history).
 */
export function findReviewProblems({ tasks, reviews }, reopensOf = () => 0) {
  const taskBy = new Map(tasks.map((t) => [t.number, t]));
  const problems = [];
  const pending = new Map();
  const approved = new Map();
  for (const v of reviews) {
    if (v.type !== "task_completion" || v.task === null || v.task === undefined) continue;
    const t = taskBy.get(v.task);
    if (v.status === "APPROVED") approved.set(v.task, [...(approved.get(v.task) ?? []), v]);
    if (v.status !== "PENDING") continue;
    pending.set(v.task, [...(pending.get(v.task) ?? []), v]);
    if (!t) problems.push({ kind: "pending-missing-task", review: v.number, task: v.task });
    else if (t.status !== "REVIEW")
      problems.push({
        kind: "pending-not-in-review",
        review: v.number,
        task: t.title,
        status: t.status,
        by: v.requestedBy,
      });
    else if (t.claimedBy !== v.requestedBy)
      problems.push({
        kind: "pending-other-owner",
        review: v.number,
        task: t.title,
        by: v.requestedBy,
        owner: t.claimedBy,
      });
  }
  for (const [n, vs] of pending)
    if (vs.length > 1)
      problems.push({ kind: "pending-twice", task: taskBy.get(n)?.title ?? n, reviews: vs.map((v) => v.number) });
  for (const [n, vs] of approved) {
    const t = taskBy.get(n);
    const allowed = 1 + reopensOf(t?.title ?? n);
    if (vs.length > allowed)
      problems.push({
        kind: "approved-too-often",
        task: t?.title ?? n,
        approvals: vs.length,
        allowed,
        reviewers: vs.map((v) => v.reviewer),
      });
  }
  return problems;
}

/** Tasks a `task create` reported ✓ for that the final state lacks (by title: numbers may change at sync). */
export function findMissingCreated(records, finalTitles) {
  const have = new Set(finalTitles);
  return records.filter((r) => r.kind === "task create" && r.outcome === "ok" && r.title && !have.has(r.title));
}

/**
 * Closes a `task close` reported ✓ (the task COMPLETE) whose task is not COMPLETE at the end.
 * The persona loop never reopens, so only a merge can have undone one (the remote's claim won
 * and took the task's status with it). Counted, not an invariant: DESIGN §3.3 lets the
 * published claim win; it is the price of a task worked twice.
 */
export function findUndoneCloses(records, tasks) {
  const status = new Map(tasks.map((t) => [t.title, t.status]));
  return records.filter(
    (r) =>
      r.kind === "task close" &&
      r.outcome === "ok" &&
      r.task &&
      r.result?.status === "COMPLETE" &&
      status.has(r.task) &&
      status.get(r.task) !== "COMPLETE",
  );
}

const saidWhere = (r) => (r.published === false ? "" : "(stderr only) ");

/** Claim outcomes for the counts: published, told not published (by reason), not said; and how many missed the budget. */
export function claimPublishCounts(records) {
  const claims = records.filter((r) => r.kind === "task claim");
  const ok = claims.filter((r) => r.outcome === "ok");
  const ms = ok.map((r) => r.t1 - r.t0).sort((a, b) => a - b);
  const q = (p) => (ms.length === 0 ? 0 : ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]);
  const unpublished = {};
  for (const r of ok.filter((x) => x.published === false || x.stderrUnpublished)) {
    const c = `${saidWhere(r)}${reasonClass(r.published === false ? (r.publishedWhy ?? null) : (r.stderrWhy ?? null))}`;
    unpublished[c] = (unpublished[c] ?? 0) + 1;
  }
  return {
    run: claims.length,
    ok: ok.length,
    refused: claims.filter((r) => r.outcome === "refused").length,
    failed: claims.filter((r) => r.outcome === "failed").length,
    published: ok.filter((r) => r.published === true).length,
    notPublished: ok.filter((r) => r.published === false).length,
    notSaid: ok.filter((r) => r.published === null || r.published === undefined).length,
    notSaidButWarned: ok.filter((r) => (r.published === null || r.published === undefined) && r.stderrUnpublished)
      .length,
    overBudget: ok.filter((r) => r.t1 - r.t0 > PUBLISH_BUDGET_MS).length,
    unpublished,
    p50: q(0.5),
    p90: q(0.9),
    max: ms.at(-1) ?? 0,
  };
}
