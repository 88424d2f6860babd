import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "../random-bytes.js";
import { ContextFactory } from "../api/api-context.js";
import { RepositoryError, UsageError } from "../errors.js";
import { EventStream } from "./event-stream.js";
import { guardRequest } from "./request-guard.js";
import { watchState } from "../services/live/state-watcher.js";
import { loadAssets } from "./web-assets.js";
import { send, sendError, sendJson } from "./web-headers.js";
import { webRoutes } from "./web-routes.js";
import { WebSession } from "./web-session.js";

export interface WebOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 0: any free port. */
  port: number;
  /** For tests: a fixed one-time token; otherwise 32 random bytes. */
  token?: string;
  /** Where unexpected failures of a request are told (the page gets a 500). */
  log?: (message: string) => void;
}

export interface WebServer {
  /** The address to open, one-time token included. */
  url: string;
  /** This server's own name and port (`p-<random>.localhost:<port>`): the only Host it answers. */
  host: string;
  port: number;
  token: string;
  /** Settles once the URL's token has been exchanged for a session (`--open` removes its file then). */
  exchanged: Promise<void>;
  close(): Promise<void>;
}

/** The page that a token's exchange answers: it sets the cookie, then loads / from this origin (no favicon asked for: a 404 is a console error). */
const SIGNED_IN =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><link rel="icon" href="data:,"><title>Pantheon</title></head><body><p>Signed in. <a href="/">Open the dashboard</a></p></body></html>\n';

/**
 * `pantheon web`: a read-only dashboard on the loopback only, under a host name of its own
 * (`p-<random>.localhost`, which browsers resolve to this machine): a cookie set for 127.0.0.1
 * would be sent to every local port, one set for this name reaches this server only. Every
 * request passes the guard (Host, Origin, method, session); the page and its script come from
 * memory; `/api/*` answers from the CLI's services; `/api/events` tells open pages when the state
 * or a live state moved.
 */
export async function serveWeb(o: WebOptions): Promise<WebServer> {
  const assets = loadAssets();
  const answer = webRoutes(o.cwd, o.env);
  const token = o.token ?? randomBytes(32).toString("hex");
  const name = `p-${randomBytes(8).toString("hex")}.localhost`;
  const session = new WebSession(token);
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
  let host = "";
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const verdict = guardRequest(
      {
        method,
        path: url.pathname,
        host: req.headers.host,
        origin: req.headers.origin,
        cookie: req.headers.cookie,
        token: method === "POST" && url.pathname === "/" ? await formToken(req) : url.searchParams.get("token"),
      },
      { host, session },
    );
    if (!verdict.ok)
      return sendError(res, verdict.status, verdict, verdict.status === 405 ? { Allow: "GET, HEAD" } : {});
    if (verdict.signIn) {
      // 200 and a refresh, not a 303: after a navigation another site started (the --open file),
      // a browser withholds SameSite=Strict cookies along the whole redirect chain; the refresh
      // is a new navigation from this origin, which carries the cookie. The token leaves the
      // address bar with it.
      const cookie: Record<string, string> = verdict.signIn.cookie ? { "Set-Cookie": verdict.signIn.cookie } : {};
      return send(res, 200, "text/html; charset=utf-8", SIGNED_IN, cookie);
    }
    if (url.pathname === "/api/events")
      return method === "HEAD"
        ? send(res, 200, "text/event-stream; charset=utf-8", "")
        : events.open(res, watcher.version());
    if (url.pathname.startsWith("/api/")) {
      const a = await answer(url.pathname, url.searchParams);
      return sendJson(res, a.status, a.doc);
    }
    const asset = assets.get(url.pathname);
    if (asset) return send(res, 200, asset.type, asset.body);
    return sendError(res, 404, {
      code: "E_WEB_ROUTE",
      message: `No such page: ${url.pathname.slice(0, 80)}`,
      hint: "open / (the dashboard)",
    });
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      // The path only: a query may hold the token, which no log keeps.
      o.log?.(`web: ${req.method} ${req.url?.split("?")[0]}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent)
        sendError(res, 500, {
          code: "E_WEB_INTERNAL",
          message: "The dashboard could not answer",
          hint: "see the terminal running pantheon web",
        });
      else res.end();
    });
  };
  let servers: Server[];
  try {
    servers = await listenLoopback(onRequest, o.port);
  } catch (e) {
    watcher.close();
    events.close();
    throw e;
  }
  const port = (servers[0]!.address() as { port: number }).port;
  host = `${name}:${port}`;
  return {
    url: `http://${host}/?token=${token}`,
    host,
    port,
    token,
    exchanged: session.exchanged,
    close: async () => {
      watcher.close();
      events.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}

/** The `token` field of the `--open` file's form (a few hundred bytes at most are read). */
async function formToken(req: IncomingMessage): Promise<string | null> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "")) return null;
  let body = "";
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 1024) return null;
  }
  return new URLSearchParams(body).get("token");
}

/**
 * Listens on 127.0.0.1 and on the same port of ::1: browsers may try ::1 first for a
 * `*.localhost` name, so that port must be this server's too, or another local program bound
 * there would receive the token and the cookie. Nothing listens beyond the loopback.
 */
async function listenLoopback(onRequest: RequestListener, wanted: number): Promise<Server[]> {
  for (let attempt = 1; ; attempt++) {
    const v4 = await listenOn(createServer(onRequest), wanted, "127.0.0.1");
    const port = (v4.address() as { port: number }).port;
    try {
      return [v4, await listenOn(createServer(onRequest), port, "::1")];
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // No IPv6 loopback here: no browser reaches ::1 either.
      if (code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT") return [v4];
      v4.close();
      if (code === "EADDRINUSE" && wanted === 0 && attempt < 5) continue;
      throw listenError(e as NodeJS.ErrnoException, port, "::1");
    }
  }
}

function listenOn(server: Server, port: number, address: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(address === "::1" ? e : listenError(e, port, address)));
    server.listen(port, address, () => resolve(server));
  });
}

function listenError(e: NodeJS.ErrnoException, port: number, address: string): Error {
  return e.code === "EADDRINUSE"
    ? new UsageError(
        `Port ${port} is in use on ${address}`,
        "pantheon web --port 0 (picks a free port), or another --port",
      )
    : e.code === "EACCES"
      ? new UsageError(
          `Port ${port} needs privileges on this machine`,
          "pantheon web --port 0 (picks a free port), or a port above 1023",
        )
      : e;
}
