import { CorruptRecordError, formatAge, RepositoryError } from "../../errors.js";
import { checkRecords, type Finding } from "../../domain/state-checks.js";
import { freshnessLine } from "../../domain/freshness.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { applyRepairs } from "./doctor-fix.js";
import { inspectState } from "./inspect-state.js";
import { checkCache } from "./cache-check.js";
import { projectFileFindings } from "./project-file-findings.js";
import { codexSandboxFindings } from "./codex-sandbox-findings.js";
import { repairRepository, repositoryFindings } from "./repository-checks.js";
import { summonFindings } from "../live/live-missions.js";
import { cloneFindings } from "./clone-findings.js";
import { remoteRefFindings } from "./remote-ref-findings.js";

export interface DoctorReport {
  ok: boolean;
  findings: Finding[];
  /** What --fix repaired (one commit), and what --break-lock removed. */
  fixed: string[];
  commit: string | null;
  counts: { tasks: number; epics: number; missions: number; reviews: number };
}

const FRESH_LOCK_MS = 10_000;
/** Candidates doctor looks for when the ref is missing (it only counts them; --recover lists them). */
const RECOVERY_LIST = 10;

async function remoteFindings(store: Store): Promise<Finding[]> {
  const out: Finding[] = [];
  // Not in step with a remote as last fetched (DESIGN §3.5): no network, as every read says it.
  for (const f of await store.freshness().catch(() => [])) {
    const line = freshnessLine([f]);
    if (line)
      out.push({
        severity: "warning",
        code: "W_NOT_IN_STEP",
        subject: `refs/coordination/remotes/${f.remote}/main`,
        message: line.replace(/: pantheon sync$/, ""),
        fix: `pantheon sync ${f.remote}`,
        fixable: false,
      });
  }
  try {
    const sync = await store.sync();
    const fallback = await sync.defaultRemote();
    for (const remote of await sync.remotes()) {
      const at = await sync.remoteRefStatus(remote);
      out.push(...remoteRefFindings(remote, at));
      if (at.problem) continue; // its refspecs cannot be judged against a ref it cannot use
      const s = await sync.refspecStatus(remote);
      if (s.legacy) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC_EXACT",
          subject: `remote.${remote}`,
          message: `remote.${remote}.fetch has the exact state refspec of an earlier version (or its old tracking ref): git fetch and git pull fail once ${remote} loses refs/coordination/main`,
          fix: `pantheon doctor --fix (or pantheon sync ${remote}) replaces it with the glob`,
          fixable: true,
        });
      } else if (s.stale) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC_OTHER",
          subject: `remote.${remote}`,
          message: `remote.${remote}.fetch still brings another ref of ${remote} into its state's tracking ref, but ${remote} keeps the state on ${at.ref}: git fetch and git pull fail once ${remote} has both`,
          fix: `pantheon doctor --fix (or pantheon sync ${remote}) replaces it with the glob of ${at.ref}`,
          fixable: true,
        });
      } else if (!s.configured && (s.hasState || remote === fallback)) {
        out.push({
          severity: "warning",
          code: "W_REFSPEC",
          subject: `remote.${remote}`,
          message: `git fetch does not bring ${remote}'s Pantheon state (no fetch refspec for ${at.ref}*)`,
          fix: `pantheon sync ${remote} (adds it), or pantheon doctor --fix`,
          fixable: true,
        });
      }
    }
  } catch {
    // No transport (a store without remotes): nothing to check.
  }
  return out;
}

/** `pantheon doctor`: checks (and with --fix repairs, in one commit) the state and the lock. */
export async function runDoctor(ctx: Context, o: { fix?: boolean; breakLock?: boolean }): Promise<DoctorReport> {
  const store = await ctx.store();
  const fixed: string[] = [];
  const findings: Finding[] = [];
  if (o.breakLock) {
    const removed = await store.breakLock();
    if (!removed) fixed.push("no lock was held");
    else {
      fixed.push(`removed ${removed.path} (${formatAge(removed.ageMs)} old)`);
      if (removed.ageMs < FRESH_LOCK_MS)
        ctx.warn(
          `the lock was only ${formatAge(removed.ageMs)} old: if a pantheon or git process was still writing, its update is lost and it will retry or fail`,
        );
    }
  }
  // The repository itself first: a format Pantheon does not implement, or a ref it cannot
  // read, stops the record checks (which would only fail on it).
  const repo = await store.repository();
  const { candidates, incomplete } =
    repo.ref.state === "ok" || repo.unsupported.length > 0
      ? { candidates: [], incomplete: 0 }
      : await store.recoveryCandidates(RECOVERY_LIST);
  if (repo.ref.state === "missing" && repo.unsupported.length === 0 && candidates.length + incomplete === 0) {
    throw new RepositoryError(
      "E_NOT_INITIALIZED",
      "No Pantheon state in this repository (refs/coordination/main does not exist)",
      "pantheon init (or pantheon sync)",
    );
  }
  findings.push(...repositoryFindings(repo, candidates.length));
  if (repo.ref.state !== "ok")
    return { ok: false, findings, fixed, commit: null, counts: { tasks: 0, epics: 0, missions: 0, reviews: 0 } };
  if (o.fix) fixed.push(...(await repairRepository(store, findings)));
  const lock = await store.lockStatus();
  if (lock)
    findings.push({
      severity: "error",
      code: "E_LOCKED",
      subject: lock.path,
      message: `the state ref is locked (${formatAge(lock.ageMs)} old); git's protocol leaves no owner in the lock`,
      fix: "pantheon doctor --break-lock (when no pantheon or git process is running)",
      fixable: false,
    });
  const tip = await store.tip();
  if (!tip)
    throw new RepositoryError(
      "E_NOT_INITIALIZED",
      "No Pantheon state in this repository (refs/coordination/main does not exist)",
      "pantheon init (or pantheon sync)",
    );
  const snap = await store.snapshotAt(tip);
  try {
    // A newer schemaVersion still refuses here, with its own message.
    findings.push(...projectFileFindings(ctx, store.root, await snap.project()));
  } catch (e) {
    if (!(e instanceof CorruptRecordError)) throw e;
    findings.push({
      severity: "error",
      code: "E_CORRUPT_RECORD",
      subject: "project.json",
      message: e.message,
      fix: `restore it from history: git log refs/coordination/main -- project.json`,
      fixable: false,
    });
  }
  findings.push(...(await codexSandboxFindings(ctx, store)));
  let inspected = await inspectState(snap);
  findings.push(
    ...inspected.findings,
    ...checkRecords(inspected.records, ctx.now()),
    ...summonFindings(store.commonDir, inspected.records.missions),
    ...(await checkCache(store, tip, inspected.records)),
    ...(await remoteFindings(store)),
    ...(await cloneFindings(store)),
  );
  let commit: string | null = null;
  if (o.fix && findings.some((f) => f.fixable)) {
    if (findings.some((f) => f.code === "E_CACHE_MISMATCH")) {
      await store.dropCache();
      await (await store.snapshot()).taskSummaries(); // rebuilt now rather than by the next read
      fixed.push("rebuilt the read cache");
    }
    const r = await applyRepairs(
      ctx,
      store,
      findings.filter((f) => f.code !== "E_CACHE_MISMATCH"),
    );
    fixed.push(...r.fixed);
    commit = r.commit;
    inspected = await inspectState(await store.snapshotAt((await store.tip())!));
    findings.length = 0;
    findings.push(...repositoryFindings(await store.repository(), 0));
    if (lock && (await store.lockStatus()))
      findings.push({
        severity: "error",
        code: "E_LOCKED",
        subject: lock.path,
        message: "the state ref is locked",
        fix: "pantheon doctor --break-lock",
        fixable: false,
      });
    findings.push(
      ...inspected.findings,
      ...checkRecords(inspected.records, ctx.now()),
      ...summonFindings(store.commonDir, inspected.records.missions),
      ...(await checkCache(store, (await store.tip())!, inspected.records)),
      ...(await remoteFindings(store)),
      ...(await cloneFindings(store)),
    );
  }
  const r = inspected.records;
  return {
    ok: !findings.some((f) => f.severity === "error"),
    findings,
    fixed,
    commit,
    counts: { tasks: r.tasks.length, epics: r.epics.length, missions: r.missions.length, reviews: r.reviews.length },
  };
}
