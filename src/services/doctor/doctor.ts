import { CorruptRecordError, formatAge, RepositoryError } from "../../errors.js";
import { checkRecords, type Finding, type StateRecords } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { applyRepairs } from "./doctor-fix.js";
import { inspectState } from "./inspect-state.js";
import { projectFileFindings } from "./project-file-findings.js";
import { remoteFindings } from "./remote-findings.js";
import { repairRepository, repositoryFindings } from "./repository-checks.js";
import { summonFindings } from "../live/live-missions.js";
import { cloneFindings } from "./clone-findings.js";
import { codexSandboxFindings } from "./codex-sandbox-findings.js";

export interface DoctorReport {
  ok: boolean;
  findings: Finding[];
  /** What --fix repaired (one commit), and what --break-lock removed. */
  fixed: string[];
  commit: string | null;
  counts: { tasks: number; epics: number; missions: number; reviews: number };
  /** Records read and validated from git by this run; the others the sealed read cache had validated (DESIGN §2.5). */
  validated: number;
}

/** What each check of a readable state is given. */
export interface DoctorInput {
  ctx: Context;
  store: Store;
  /** The commit checked. */
  tip: string;
  /** Its records: task summaries, whole epics, missions and reviews. */
  records: StateRecords;
}

/**
 * The checks doctor runs once the state can be read, in this order: each returns its findings.
 * A new check is a function in a file of its own and one line here.
 */
export const DOCTOR_CHECKS: ReadonlyArray<(input: DoctorInput) => Finding[] | Promise<Finding[]>> = [
  (i) => checkRecords(i.records, i.ctx.now()),
  (i) => summonFindings(i.store.commonDir, i.records.missions),
  (i) => remoteFindings(i.store),
  (i) => cloneFindings(i.store),
  (i) => codexSandboxFindings(i.ctx, i.store),
];

const FRESH_LOCK_MS = 10_000;
/** Candidates doctor looks for when the ref is missing (it only counts them; --recover lists them). */
const RECOVERY_LIST = 10;

function lockFinding(lock: { path: string; ageMs: number }, detail: boolean): Finding {
  return {
    severity: "error",
    code: "E_LOCKED",
    subject: lock.path,
    message: detail
      ? `the state ref is locked (${formatAge(lock.ageMs)} old); git's protocol leaves no owner in the lock`
      : "the state ref is locked",
    fix: detail
      ? "pantheon doctor --break-lock (when no pantheon or git process is running)"
      : "pantheon doctor --break-lock",
    fixable: false,
  };
}

/** The state at the tip: its records, what is wrong with them, and every registered check. */
async function checkTip(
  ctx: Context,
  store: Store,
  tip: string,
  o: { full?: boolean },
): Promise<{ findings: Finding[]; records: StateRecords; validated: number }> {
  const snap = await store.snapshotAt(tip);
  const inspected = await inspectState(store, snap, { trustCache: !o.full });
  const findings = [...inspected.findings];
  for (const check of DOCTOR_CHECKS) findings.push(...(await check({ ctx, store, tip, records: inspected.records })));
  return { findings, records: inspected.records, validated: inspected.validated };
}

/** `pantheon doctor`: checks (and with --fix repairs, in one commit) the state and the lock. */
export async function runDoctor(
  ctx: Context,
  o: { fix?: boolean; breakLock?: boolean; full?: boolean },
): Promise<DoctorReport> {
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
  if (repo.ref.state === "missing" && repo.unsupported.length === 0 && candidates.length + incomplete === 0)
    throw notInitialized();
  findings.push(...repositoryFindings(repo, candidates.length));
  const none = { tasks: 0, epics: 0, missions: 0, reviews: 0 };
  if (repo.ref.state !== "ok") return { ok: false, findings, fixed, commit: null, counts: none, validated: 0 };
  if (o.fix) fixed.push(...(await repairRepository(store, findings)));
  const lock = await store.lockStatus();
  if (lock) findings.push(lockFinding(lock, true));
  const tip = await store.tip();
  if (!tip) throw notInitialized();
  findings.push(...(await projectFindings(ctx, store, tip)));
  let state = await checkTip(ctx, store, tip, o);
  findings.push(...state.findings);
  let commit: string | null = null;
  let validated = state.validated;
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
    const now = (await store.tip())!;
    findings.length = 0;
    findings.push(...repositoryFindings(await store.repository(), 0));
    if (lock && (await store.lockStatus())) findings.push(lockFinding(lock, false));
    state = await checkTip(ctx, store, now, o);
    findings.push(...state.findings);
    validated += state.validated;
  }
  const r = state.records;
  return {
    ok: !findings.some((f) => f.severity === "error"),
    findings,
    fixed,
    commit,
    counts: { tasks: r.tasks.length, epics: r.epics.length, missions: r.missions.length, reviews: r.reviews.length },
    validated,
  };
}

/** project.json: a newer schemaVersion still refuses here, with its own message. */
async function projectFindings(ctx: Context, store: Store, tip: string): Promise<Finding[]> {
  try {
    return projectFileFindings(ctx, store.root, await (await store.snapshotAt(tip)).project());
  } catch (e) {
    if (!(e instanceof CorruptRecordError)) throw e;
    return [
      {
        severity: "error",
        code: "E_CORRUPT_RECORD",
        subject: "project.json",
        message: e.message,
        fix: `restore it from history: git log refs/coordination/main -- project.json`,
        fixable: false,
      },
    ];
  }
}

function notInitialized(): RepositoryError {
  return new RepositoryError(
    "E_NOT_INITIALIZED",
    "No Pantheon state in this repository (refs/coordination/main does not exist)",
    "pantheon init (or pantheon sync)",
  );
}
