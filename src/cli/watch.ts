import { UsageError, WatchEnded } from "../errors.js";
import { dashboardText } from "../render/dashboard-text.js";
import type { DashboardView } from "../render/dashboard-view.js";
import { stateVersion } from "../services/state-version.js";
import type { App } from "./app.js";

const POLL_MS = 400;

/**
 * Redraws the dashboard whenever refs/coordination/main moves (one ref read per poll: cheap),
 * until Ctrl-C, which ends it normally. On a terminal the screen is cleared between draws.
 */
export async function watchDashboard(app: App, render: () => Promise<DashboardView>): Promise<never> {
  if (app.json) throw new UsageError("--watch redraws for a person; --json gives one document", "pantheon dashboard --json (without --watch)");
  const ctx = app.context();
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let last: string | null | undefined;
  try {
    while (!stopped) {
      const tip = await stateVersion(ctx);
      if (tip !== last) {
        last = tip;
        const style = app.style();
        const text = dashboardText(await render(), style);
        const stamp = style.paint.dim(`\nwatching ${new Date().toLocaleTimeString()} · Ctrl-C to stop`);
        app.io.stdout.write(`${style.tty ? "\u001b[2J\u001b[H" : "\n"}${text}\n${stamp}\n`);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  }
  throw new WatchEnded();
}

