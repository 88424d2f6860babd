import type { Command } from "commander";
import { parseTaskRole } from "../../domain/roles.js";
import { dashboardText } from "../../render/dashboard-text.js";
import { dashboardView } from "../../render/dashboard-view.js";
import { buildDashboard } from "../../services/views/dashboard.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view } from "../view.js";
import { watchDashboard } from "../watch.js";

export function registerDashboardCommand(program: Command, app: App): void {
  examples(
    program
      .command("dashboard")
      .description("Active personas, progress, epics, blocked tasks, pending reviews and recent activity")
      .option("--epic <id>", "one epic: its header, bar and tasks")
      .option("--role <role>", "only this role's missions and tasks")
      .option("--watch", "redraw when the state changes, until Ctrl-C")
      .action(
        run(app, async (o: { epic?: string; role?: string; watch?: boolean }) => {
          const input = {
            ...(o.epic !== undefined && { epic: o.epic }),
            ...(o.role !== undefined && { role: parseTaskRole(o.role) }),
          };
          const render = async () => dashboardView(await buildDashboard(app.context(), input));
          if (o.watch) await watchDashboard(app, render);
          const data = await render();
          return view("dashboard", data, (s) => dashboardText(data, s));
        }),
      ),
    ["pantheon dashboard", "pantheon dashboard --epic EPC-H-0001", "pantheon dashboard --role engineer --watch"],
  );
}
