import { DIRECTOR } from "../../domain/actor.js";
import { repairReview, repairTask } from "../../domain/repair-records.js";
import { toTaskSummary } from "../../domain/task-summary.js";
import { missionId, reviewId, taskId } from "../../domain/ids.js";
import type { Finding } from "../../domain/state-checks.js";
import type { Store } from "../../store/store.js";
import { commitInfo } from "../kernel/commit-info.js";
import { isoNow, type Context } from "../kernel/context.js";
import { inspectState } from "./inspect-state.js";
import { readLiveFile } from "../live/live-events.js";
import { removeSummonRecord } from "../live/summon-record.js";

/**
 * The safe repairs, as ONE commit: remove corrupt and stray entries (the only command that
 * does), raise counters, drop dangling references, make claims consistent; plus the fetch
 * refspecs, which live in git config rather than on the ref.
 */
export async function applyRepairs(
  ctx: Context,
  store: Store,
  findings: Finding[],
): Promise<{ fixed: string[]; commit: string | null }> {
  const fixed: string[] = [];
  for (const f of findings.filter((x) => ["W_REFSPEC", "W_REFSPEC_EXACT", "W_REFSPEC_OTHER"].includes(x.code))) {
    const remote = f.subject.replace(/^remote\./, "");
    const sync = await store.sync();
    if (f.code === "W_REFSPEC_EXACT" && (await sync.migrateRefspec(remote)).migrated)
      fixed.push(`replaced the exact fetch refspec of ${remote} with the glob and deleted its old tracking ref`);
    if (f.code === "W_REFSPEC" && (await sync.ensureFetchRefspec(remote)))
      fixed.push(`added the fetch refspec of ${remote}`);
    // ensureFetchRefspec drops the glob of the other ref as it adds the one of the remote's state ref.
    if (f.code === "W_REFSPEC_OTHER") {
      await sync.ensureFetchRefspec(remote);
      fixed.push(`replaced the state refspec of ${remote} with the glob of ${(await sync.remoteRef(remote)).ref}`);
    }
  }
  const ended: string[] = [];
  const { commit } = await store.mutate(async (tx) => {
    ended.length = 0;
    const { records, findings: now } = await inspectState(store, tx);
    for (const f of now.filter((x) => x.fixable)) {
      if (f.code === "E_CORRUPT_RECORD" && f.subject !== "counters.json") {
        tx.removePath(f.subject);
        fixed.push(`removed corrupt ${f.subject}`);
      } else if (f.code === "W_STRAY_ENTRY") {
        tx.removePath(f.subject);
        fixed.push(`removed stray ${f.subject}`);
      }
    }
    const known = {
      tasks: new Set(records.tasks.map((t) => t.number)),
      epics: new Set(records.epics.map((e) => e.number)),
      missions: new Set(records.missions.map((m) => m.number)),
    };
    const at = isoNow(ctx);
    for (const summary of records.tasks) {
      // Decided on the summary (a plain copy: a cache row's fields are getters); only a task
      // that needs a repair is read whole.
      if (repairTask(toTaskSummary(summary), known).changes.length === 0) continue;
      const t = await tx.get("tasks", summary.number);
      if (!t) continue;
      const r = repairTask(t, known);
      if (r.changes.length === 0) continue;
      const note = {
        id: ctx.ids.noteId(),
        at,
        by: "doctor",
        kind: "system" as const,
        text: `doctor --fix: ${r.changes.join("; ")}`,
      };
      tx.put("tasks", { ...r.task, notes: [...r.task.notes, note], updatedAt: at });
      fixed.push(`${taskId(t)}: ${r.changes.join("; ")}`);
    }
    for (const v of records.reviews) {
      const r = repairReview(v, known);
      if (r.changes.length === 0) continue;
      tx.put("reviews", { ...r.review, updatedAt: at });
      fixed.push(`${reviewId(v.number)}: ${r.changes.join("; ")}`);
    }
    for (const f of findings.filter((x) => x.code === "W_SUMMON_GONE")) {
      const m = records.missions.find((x) => missionId(x.number) === f.subject);
      if (!m || m.status !== "ACTIVE") continue;
      // The session id its hooks reported (codex, opencode) is kept for `summon --resume`.
      const sessionId = m.sessionId ?? readLiveFile(store.commonDir, m.uid)?.sessionId ?? null;
      tx.put("missions", {
        ...m,
        status: "ENDED",
        endedAt: at,
        updatedAt: at,
        summary: m.summary ?? "ended by doctor --fix: its summon process was gone",
        ...(sessionId ? { sessionId } : {}),
      });
      ended.push(m.uid);
      fixed.push(`${f.subject}: ended (its summon process was gone)`);
    }
    const counters = records.counters ?? { tasks: 0, epics: 0, missions: 0, reviews: 0 };
    const raised = { ...counters };
    for (const k of ["tasks", "epics", "missions", "reviews"] as const)
      raised[k] = Math.max(counters[k], 0, ...records[k].map((r) => r.number));
    if (!records.counters || JSON.stringify(raised) !== JSON.stringify(counters)) {
      tx.putCounters(raised);
      fixed.push(`counters.json → ${JSON.stringify(raised)}`);
    }
    return {
      result: null,
      commit: {
        ...commitInfo("doctor.fix", "state", DIRECTOR),
        summary: `doctor fix of ${fixed.length} problem(s) by Director`,
      },
    };
  });
  for (const uid of ended) removeSummonRecord(store.commonDir, uid);
  return { fixed, commit };
}
