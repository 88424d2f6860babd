import { parseTaskRole } from "../domain/roles.js";
import { dashboardView, type DashboardView } from "../render/dashboard-view.js";
import { logEntryView, type LogEntryView } from "../render/log-view.js";
import { buildDashboard } from "../services/views/dashboard.js";
import { runDoctor, type DoctorReport } from "../services/doctor/doctor.js";
import { recoverState, recoveryPlan, type RecoveryReport } from "../services/doctor/recover-state.js";
import { readLog } from "../services/views/read-log.js";
import { pickRemotes, syncAll, type SyncFailure } from "../services/sync/sync-remotes.js";
import { syncWith, type SyncReport } from "../services/sync/sync-state.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, wholeNumber, type TaskRoleInput } from "./inputs.js";

/** The whole state: the dashboard, sharing it with remotes, the audit log and checks. */
export interface StateApi {
  /** `dashboard`: active personas, progress, epics, blocked tasks, pending reviews, recent activity. */
  dashboard(o?: CallOptions & { epic?: string; role?: TaskRoleInput }): Promise<DashboardView>;
  /**
   * `sync`: with the given remote, or the branch's upstream, else origin; after the remote
   * rewrote (or rewound) its history, `restore` publishes what it lost again and `acceptRewrite`
   * takes its state; `adoptRemote` to join a remote whose state was started apart.
   */
  sync(
    o?: CallOptions & {
      remote?: string;
      all?: false;
      acceptRewrite?: boolean;
      restore?: boolean;
      adoptRemote?: boolean;
    },
  ): Promise<SyncReport>;
  /**
   * `sync --all`: every remote, one after another; a remote that failed is in the list as
   * `{ action: "failed", ... }` (the CLI reports it and exits 3).
   */
  sync(
    o: CallOptions & { all: true; acceptRewrite?: boolean; restore?: boolean; adoptRemote?: boolean },
  ): Promise<Array<SyncReport | SyncFailure>>;
  /** `log`: the newest commits of refs/coordination/main (default 20). */
  log(o?: CallOptions & { limit?: number }): Promise<LogEntryView[]>;
  /** `doctor`: the report, also when it found problems (`ok: false`), where the CLI exits 1. */
  doctor(o?: CallOptions & { fix?: boolean; breakLock?: boolean; full?: boolean }): Promise<DoctorReport>;
  /**
   * `doctor --recover [COMMIT]`: without `commit`, the ref's condition and the states it can be
   * restored to (newest first; the CLI exits 1 when the ref is broken and nothing was chosen);
   * with `commit`, restores that state as one new commit. Never guesses.
   */
  recover(o?: CallOptions & { commit?: string }): Promise<RecoveryReport>;
}

export function stateApi(contexts: ContextFactory): StateApi {
  async function sync(
    o: CallOptions & {
      remote?: string;
      all?: boolean;
      acceptRewrite?: boolean;
      restore?: boolean;
      adoptRemote?: boolean;
    } = {},
  ): Promise<SyncReport | Array<SyncReport | SyncFailure>> {
    const ctx = contexts.for(o);
    const remotes = await pickRemotes(ctx, defined({ remote: o.remote, all: o.all || undefined }));
    const flags = {
      acceptRewrite: Boolean(o.acceptRewrite),
      restore: Boolean(o.restore),
      adoptRemote: Boolean(o.adoptRemote),
    };
    return o.all ? syncAll(ctx, remotes, flags) : syncWith(ctx, remotes[0]!, flags);
  }
  return {
    dashboard: async (o = {}) =>
      dashboardView(
        await buildDashboard(
          contexts.for(o),
          defined({ epic: o.epic, role: o.role === undefined ? undefined : parseTaskRole(o.role, "role") }),
        ),
      ),
    sync: sync as StateApi["sync"],
    log: async (o = {}) =>
      (await readLog(contexts.for(o), defined({ limit: wholeNumber(o.limit, "limit", 1) }))).map(logEntryView),
    doctor: async (o = {}) =>
      runDoctor(contexts.for(o), { fix: Boolean(o.fix), breakLock: Boolean(o.breakLock), full: Boolean(o.full) }),
    recover: async (o = {}) =>
      o.commit === undefined ? recoveryPlan(contexts.for(o)) : recoverState(contexts.for(o), o.commit),
  };
}
