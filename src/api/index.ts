/**
 * `pantheon/api`: the typed programmatic interface (DESIGN §4.1a). See docs/api.md.
 * Nothing here imports commander, @inquirer or picocolors: those are the CLI's.
 */
export { openPantheon, type Pantheon } from "./open-pantheon.js";
export type { ActorOptions, CallOptions, PantheonOptions, Publication } from "./api-context.js";
export type {
  AnyCase,
  PriorityInput,
  ReviewStatusInput,
  ReviewTypeInput,
  RoleInput,
  TaskRoleInput,
  TaskStatusInput,
} from "./inputs.js";
export type { TaskFilterInput, TaskQuestions } from "./task-questions-api.js";
export type { CreateTaskInput, TaskMutations } from "./task-mutations-api.js";
export type { EpicsApi } from "./epics-api.js";
export type { ReviewsApi } from "./reviews-api.js";
export type { MissionsApi } from "./missions-api.js";
export type { PersonasApi } from "./personas-api.js";
export type { StateApi } from "./state-api.js";
export type { ConfigApi } from "./config-api.js";
export type { ConfigSetView, ConfigShowView } from "../render/config-view.js";
export type { SyncFailure } from "../services/sync/sync-remotes.js";
export type { RecoveryReport } from "../services/doctor/recover-state.js";
export {
  ConflictError,
  ContentionError,
  CorruptRecordError,
  InvalidTransitionError,
  LockedError,
  NoMergeBaseError,
  NotFoundError,
  PantheonError,
  RemoteRewrittenError,
  RenumberedError,
  RepositoryError,
  SchemaVersionError,
  SyncError,
  UsageError,
  type ExitCode,
} from "../errors.js";
export type { CriterionView, TaskDetailView, TaskSummaryView, PlanView } from "../render/task-view.js";
export type { NextView, SearchResultView } from "../render/question-views.js";
export type { EpicView } from "../render/epic-view.js";
export type { ReviewView } from "../render/review-view.js";
export type { MissionCommit, MissionDetailView, MissionEndView, MissionView } from "../render/mission-view.js";
export type { DashboardView, ActivityEntry } from "../render/dashboard-view.js";
export type { LogEntryView } from "../render/log-view.js";
export type { PersonaEntryView, PersonaView } from "../render/persona-view.js";
export type { Report } from "../domain/task-questions.js";
export type { HistoryEvent } from "../services/views/task-history.js";
export type { ActivityRow } from "../services/views/persona-activity.js";
export type { SyncReport, SyncAction } from "../services/sync/sync-state.js";
export type { DoctorReport } from "../services/doctor/doctor.js";
export type { Finding } from "../domain/state-checks.js";
export type { Note } from "../domain/schemas/note.js";
export type { Priority } from "../domain/priority.js";
export type { Role, TaskRole } from "../domain/roles.js";
export type { TaskStatus } from "../domain/task-status.js";
export type { ReviewStatus, ReviewType } from "../domain/review-values.js";
