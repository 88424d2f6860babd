import type { Command } from "commander";
import type { App } from "../app.js";
import { registerTaskAskCommands } from "./task-ask.js";
import { registerTaskCriteriaCommands } from "./task-criteria.js";
import { registerTaskEditCommands } from "./task-edit.js";
import { registerTaskOrganizeCommands } from "./task-organize.js";
import { registerTaskReadCommands } from "./task-read.js";
import { registerTaskWriteCommands } from "./task-write.js";

export function registerTaskCommands(program: Command, app: App): void {
  const task = program
    .command("task")
    .description("Create, claim, move and ask about tasks")
    .addHelpText(
      "after",
      "\nIds: ENG-H-0007, or just its number (7). Statuses: TODO READY UNDERWAY REVIEW BLOCKED COMPLETE ABORTED.\n",
    );
  registerTaskWriteCommands(task, app);
  registerTaskEditCommands(task, app);
  registerTaskCriteriaCommands(task, app);
  registerTaskReadCommands(task, app);
  registerTaskAskCommands(task, app);
  registerTaskOrganizeCommands(task, app);
}
