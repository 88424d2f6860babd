import { parseTaskRole } from "../domain/roles.js";
import { dashboardView, type DashboardView } from "../render/dashboard-view.js";
import { logEntryView, type LogEntryView } from "../render/log-view.js";
import { buildDashboard } from "../services/dashboard.js";
import { runDoctor, type DoctorReport } from "../services/doctor.js";
import { readLog } from "../services/read-log.js";
import { pickRemotes, syncWith, type SyncReport } from "../services/sync-state.js";
import type { CallOptions, ContextFactory } from "./api-context.js";
import { defined, wholeNumber, type TaskRoleInput } from "./inputs.js";

/** The whole state: the dashboard, sharing it with remotes, the audit log and checks. */
export interface StateApi {
  /** `dashboard`: active personas, progress, epics, blocked tasks, pending reviews, recent activity. */
  dashboard(o?: CallOptions & { epic?: string; role?: TaskRoleInput }): Promise<DashboardView>;
  /** `sync`: with the given remote, or the branch's upstream, else origin. */
  sync(o?: CallOptions & { remote?: string; all?: false }): Promise<SyncReport>;
  /** `sync --all`: every remote, one after another. */
  sync(o: CallOptions & { all: true }): Promise<SyncReport[]>;
  /** `log`: the newest commits of refs/coordination/main (default 20). */
  log(o?: CallOptions & { limit?: number }): Promise<LogEntryView[]>;
  /** `doctor`: the report, also when it found problems (`ok: false`), where the CLI exits 1. */
  doctor(o?: CallOptions & { fix?: boolean; breakLock?: boolean }): Promise<DoctorReport>;
}

export function stateApi(contexts: ContextFactory): StateApi {
  async function sync(o: CallOptions & { remote?: string; all?: boolean } = {}): Promise<SyncReport | SyncReport[]> {
    const ctx = contexts.for(o);
    const reports: SyncReport[] = [];
    for (const r of await pickRemotes(ctx, defined({ remote: o.remote, all: o.all || undefined }))) reports.push(await syncWith(ctx, r));
    return o.all ? reports : reports[0]!;
  }
  return {
    dashboard: async (o = {}) => dashboardView(await buildDashboard(contexts.for(o), defined({ epic: o.epic, role: o.role === undefined ? undefined : parseTaskRole(o.role, "role") }))),
    sync: sync as StateApi["sync"],
    log: async (o = {}) => (await readLog(contexts.for(o), defined({ limit: wholeNumber(o.limit, "limit", 1) }))).map(logEntryView),
    doctor: async (o = {}) => runDoctor(contexts.for(o), { fix: Boolean(o.fix), breakLock: Boolean(o.breakLock) }),
  };
}
