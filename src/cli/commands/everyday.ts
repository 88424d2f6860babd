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
 * The commands personas run all day, behind one dynamic import (cli/program.ts): they share
 * most of their modules (services, render, the domain), so evaluating the others with the one a
 * command line names costs little, and keeps them one module to register.
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
