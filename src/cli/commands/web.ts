import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { App } from "../app.js";
import { examples, intOption, run } from "../command-kit.js";

/**
 * Ctrl-C, SIGTERM or a closed terminal ends the server (closed first, exit 0). The handlers are
 * in place before the server listens, so a signal sent as soon as the URL appears never meets
 * the default action (a kill with no close and no exit 0).
 */
function stopSignals(): { stopped: Promise<void>; dispose: () => void } {
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  let done = () => {};
  const stopped = new Promise<void>((resolve) => (done = resolve));
  const stop = () => {
    dispose();
    done();
  };
  const dispose = () => {
    for (const s of signals) process.removeListener(s, stop);
  };
  for (const s of signals) process.once(s, stop);
  return { stopped, dispose };
}

export function registerWebCommand(program: Command, app: App): void {
  examples(
    program
      .command("web")
      .description("Serve a live, read-only web dashboard on this machine (personas, epics, board, graph, charts)")
      .option("--port <n>", "the port to listen on (0: any free port)", intOption("--port"), 0)
      .option("--open", "open the dashboard in the system's browser (xdg-open / open)")
      .addHelpText(
        "after",
        "\nThe printed URL carries a one-time token: the first browser that opens it gets a session cookie, and the URL\nopens nothing after that (--open signs the browser in through a private file, never the URL in its argv).\nThe page follows every change of the state (any worktree, a sync) and the personas' live states.\n",
      )
      .action(
        run(app, async (o: { port: number; open?: boolean }) => {
          if (o.port > 65535)
            throw new UsageError(
              `--port must be at most 65535, not ${o.port}`,
              "pantheon web --port 0 (picks a free port)",
            );
          // Loaded only here: the server and the page's assets never touch another command's start-up.
          const { serveWeb } = await import("../../web/serve-web.js");
          const signals = stopSignals();
          let opened: { started: boolean; remove(): void } | null = null;
          try {
            const server = await serveWeb({ cwd: app.cwd(), env: app.io.env, port: o.port, log: (m) => app.warn(m) });
            if (app.json)
              app.io.stdout.write(
                `${JSON.stringify({ schemaVersion: 1, kind: "web", data: { url: server.url, port: server.port } })}\n`,
              );
            else
              app.io.stdout.write(
                `✓ Pantheon dashboard on ${server.url}\n  the link signs in one browser, once; read-only; Ctrl-C stops it\n`,
              );
            if (o.open) {
              const { openBrowser } = await import("../../web/open-browser.js");
              opened = await openBrowser(server);
              if (!opened.started) app.warn("could not start a browser (xdg-open / open); open the URL above yourself");
              // The sign-in file holds the token: gone as soon as it did its work.
              void server.exchanged.then(() => opened?.remove());
            }
            await signals.stopped;
            await server.close();
          } finally {
            opened?.remove();
            signals.dispose();
          }
          return undefined; // the URL was the result, printed when the server was listening
        }),
      ),
    ["pantheon web", "pantheon web --open", "pantheon web --port 8080", "pantheon -C ../other-clone web --port 0"],
  );
}
