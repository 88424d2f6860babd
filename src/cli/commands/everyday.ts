import type { Command } from "commander";
import type { App } from "../app.js";
import { registerDashboardCommand } from "./dashboard.js";
import { registerEpicCommands } from "./epic.js";
import { registerLogCommand } from "./log.js";
import { registerMissionCommands } from "./mission.js";
import { registerPersonaCommands } from "./persona.js";
import { registerReviewCommands } from "./review.js";
import { registerTaskCommands } from "./task.js";

/**
 * The commands personas run all day share most of their code: one chunk for all of them opens
 * one file instead of dozens of small shared chunks (each file costs a read and a compile).
 */
export const EVERYDAY: Record<string, (program: Command, app: App) => void> = {
  task: registerTaskCommands,
  epic: registerEpicCommands,
  review: registerReviewCommands,
  mission: registerMissionCommands,
  persona: registerPersonaCommands,
  dashboard: registerDashboardCommand,
  log: registerLogCommand,
};
