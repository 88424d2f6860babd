import { escapeInline } from "../domain/control-chars.js";
import { WAITING_STATES } from "../domain/live-state.js";
import { UsageError, WatchEnded } from "../errors.js";
import { dashboardText } from "../render/dashboard-text.js";
import type { DashboardView } from "../render/dashboard-view.js";
import { statusText, statusView } from "../render/status-view.js";
import { liveStatus, notifySettings } from "../services/live/live-status.js";
import { watchState } from "../services/live/state-watcher.js";
import type { App } from "./app.js";

/** The slowest a change can wait for a redraw (fs.watch usually wakes the loop at once). */
const POLL_MS = 400;
/** Durations on screen ("needs-input 4m") move on even when nothing else does. */
const REFRESH_MS = 30_000;

/** A persona's live state as a watch compares it between draws. */
export interface WatchedLive {
  key: string;
  persona: string;
  state: string;
  detail: string;
}

/**
 * What a terminal gets when a persona starts waiting for the Director: a bell, and the same
 * words as an OSC 9 (iTerm2, Windows Terminal, kitty...) and OSC 777 (VTE, foot, WezTerm)
 * notification. The words come from records and hook input: escaped, so they cannot end the
 * sequence early or drive the terminal.
 */
export function terminalNotice(persona: string, state: string, detail: string): string {
  const words =
    `${escapeInline(persona)} ${state === "idle" ? "is waiting for you" : "needs your input"}${detail ? `: ${escapeInline(detail)}` : ""}`.slice(
      0,
      200,
    );
  return `\u0007\u001b]9;${words}\u0007\u001b]777;notify;Pantheon;${words}\u0007`;
}

/** The personas that entered a waiting state since the last draw (none on the first draw). */
export function newlyWaiting(before: ReadonlyMap<string, string> | null, now: readonly WatchedLive[]): WatchedLive[] {
  if (!before) return [];
  return now.filter((l) => WAITING_STATES.includes(l.state as never) && before.get(l.key) !== l.state);
}

/**
 * Redraws whenever refs/coordination/main moves or a session's live file changes (the live
 * folder is watched; a short poll covers file systems without notifications), until Ctrl-C,
 * which ends it normally, and when the terminal changes size. A persona entering needs-input or
 * idle rings the terminal (`pantheon.notify`: bell). On a terminal the screen is cleared between
 * draws.
 */
async function watchLoop(app: App, frame: () => Promise<{ text: string; lives: WatchedLive[] }>): Promise<never> {
  if (app.json)
    throw new UsageError(
      "--watch redraws for a person; --json gives one document",
      "the same command with --json and without --watch",
    );
  const ctx = app.context();
  const store = await ctx.store();
  const bell = (await notifySettings(ctx)).has("bell");
  let stopped = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // A terminal that changes size (SIGWINCH) gets a frame at its new width at once: Node's tty
  // stream has read the new size before it says 'resize'.
  const terminal = app.io.stdout as Partial<Pick<NodeJS.WriteStream, "on" | "removeListener" | "rows">>;
  const resized = () => wake?.();
  terminal.on?.("resize", resized);
  // The state's one watcher (the ref and the live folder, as `pantheon web`'s), polling as often
  // as this loop does: its version is what a frame is drawn from.
  const watcher = await watchState(
    store.commonDir,
    () => store.tip(),
    () => wake?.(),
    { pollMs: POLL_MS },
  );
  let last: string | undefined;
  let states: Map<string, string> | null = null;
  try {
    while (!stopped) {
      const size = `${app.io.stdout.columns ?? ""}x${terminal.rows ?? ""}`;
      const signature = `${watcher.version()}|${Math.floor(Date.now() / REFRESH_MS)}|${size}`;
      if (signature !== last) {
        last = signature;
        const style = app.style();
        const { text, lives } = await frame();
        const notices = bell
          ? newlyWaiting(states, lives)
              .map((l) => terminalNotice(l.persona, l.state, l.detail))
              .join("")
          : "";
        states = new Map(lives.map((l) => [l.key, l.state]));
        const stamp = style.paint.dim(`\nwatching ${new Date().toLocaleTimeString()} · Ctrl-C to stop`);
        app.io.stdout.write(`${style.tty ? "\u001b[2J\u001b[H" : "\n"}${text}\n${stamp}\n${notices}`);
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, POLL_MS);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      wake = null;
    }
  } finally {
    watcher.close();
    terminal.removeListener?.("resize", resized);
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  }
  throw new WatchEnded();
}

/** `dashboard --watch`. */
export async function watchDashboard(app: App, render: () => Promise<DashboardView>): Promise<never> {
  return watchLoop(app, async () => {
    const d = await render();
    const lives = d.missions
      .filter((m) => m.live)
      .map((m) => ({ key: m.id, persona: m.persona, state: m.live!.state, detail: m.live!.detail }));
    return { text: dashboardText(d, app.style()), lives };
  });
}

/** `status --watch`: who waits longest first. */
export async function watchStatus(app: App): Promise<never> {
  return watchLoop(app, async () => {
    const v = statusView(await liveStatus(app.context()));
    const lives = v.missions
      .filter((m) => m.live)
      .map((m) => ({ key: m.id, persona: m.persona, state: m.live!.state, detail: m.live!.detail }));
    return { text: statusText(v, app.style(), new Date()), lives };
  });
}
