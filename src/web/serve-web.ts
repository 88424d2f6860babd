import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes } from "../random-bytes.js";
import { ContextFactory } from "../api/api-context.js";
import { RepositoryError, UsageError } from "../errors.js";
import { EventStream } from "./event-stream.js";
import { guardRequest } from "./request-guard.js";
import { watchState } from "./state-watcher.js";
import { loadAssets } from "./web-assets.js";
import { send, sendError, sendJson } from "./web-headers.js";
import { webRoutes } from "./web-routes.js";

export interface WebOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 0: any free port. */
  port: number;
  /** For tests: a fixed token; otherwise 32 random bytes. */
  token?: string;
  /** Where unexpected failures of a request are told (the page gets a 500). */
  log?: (message: string) => void;
}

export interface WebServer {
  /** The address to open, token included. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * `pantheon web`: a read-only dashboard on 127.0.0.1 only. Every request passes the guard
 * (Host, Origin, method, token); the page and its script come from memory; `/api/*` answers
 * from the CLI's services; `/api/events` tells open pages when the state or a live state moved.
 */
export async function serveWeb(o: WebOptions): Promise<WebServer> {
  const assets = loadAssets();
  const answer = webRoutes(o.cwd, o.env);
  const token = o.token ?? randomBytes(32).toString("hex");
  const events = new EventStream();
  const store = await new ContextFactory({ cwd: o.cwd, env: o.env, onWarning: () => {} }).for().store();
  // Refuses now (no state, an unsupported format) rather than on the first page.
  await store.snapshot().catch((e: unknown) => {
    if (e instanceof RepositoryError && e.code === "E_NOT_INITIALIZED")
      throw new RepositoryError(
        e.code,
        e.message,
        `${e.hint ?? "pantheon init"}; to look at a demo: pantheon demo --keep, then pantheon -C <the folder it prints> web`,
      );
    throw e;
  });
  const watcher = await watchState(
    store.commonDir,
    () => store.tip(),
    (v) => events.tell(v),
  );
  let port = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const verdict = guardRequest(
      {
        method: req.method ?? "GET",
        host: req.headers.host,
        origin: req.headers.origin,
        cookie: req.headers.cookie,
        queryToken: url.searchParams.get("token"),
      },
      { port, token },
    );
    if (!verdict.ok)
      return sendError(res, verdict.status, verdict, verdict.status === 405 ? { Allow: "GET, HEAD" } : {});
    const cookie: Record<string, string> = verdict.cookie ? { "Set-Cookie": verdict.cookie } : {};
    if (verdict.cookie && url.pathname === "/") {
      // The token leaves the address bar (and the history) once the cookie holds it.
      return send(res, 303, "text/plain; charset=utf-8", "", { ...cookie, Location: "/" });
    }
    if (url.pathname === "/api/events")
      return req.method === "HEAD"
        ? send(res, 200, "text/event-stream; charset=utf-8", "")
        : events.open(res, watcher.version());
    if (url.pathname.startsWith("/api/")) {
      const a = await answer(url.pathname, url.searchParams);
      return sendJson(res, a.status, a.doc, cookie);
    }
    const asset = assets.get(url.pathname);
    if (asset) return send(res, 200, asset.type, asset.body, cookie);
    return sendError(res, 404, {
      code: "E_WEB_ROUTE",
      message: `No such page: ${url.pathname.slice(0, 80)}`,
      hint: "open / (the dashboard)",
    });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log?.(`web: ${req.method} ${req.url?.split("?")[0]}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent)
        sendError(res, 500, {
          code: "E_WEB_INTERNAL",
          message: "The dashboard could not answer",
          hint: "see the terminal running pantheon web",
        });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      watcher.close();
      events.close();
      reject(
        e.code === "EADDRINUSE"
          ? new UsageError(
              `Port ${o.port} is in use on 127.0.0.1`,
              "pantheon web --port 0 (picks a free port), or another --port",
            )
          : e.code === "EACCES"
            ? new UsageError(
                `Port ${o.port} needs privileges on this machine`,
                "pantheon web --port 0 (picks a free port), or a port above 1023",
              )
            : e,
      );
    });
    server.listen(o.port, "127.0.0.1", () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        watcher.close();
        events.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
