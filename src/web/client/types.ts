// The shapes the server sends: the CLI's own views (types only: nothing of the server is bundled).
export type { DashboardView } from "../../render/dashboard-view.js";
export type { TaskSummaryView, TaskDetailView } from "../../render/task-view.js";
export type { EpicView } from "../../render/epic-view.js";
export type { ReviewView } from "../../render/review-view.js";
export type { GraphView } from "../../render/graph-view.js";
export type { HistoryEvent } from "../../services/views/task-history.js";
export type { HistoryCharts } from "../../domain/history-charts.js";
export type { SearchResultView } from "../../render/question-views.js";
