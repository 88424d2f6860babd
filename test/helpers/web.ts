import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { onTestFinished } from "vitest";
import { serveWeb, type WebServer } from "../../src/web/serve-web.js";
import { testEnv } from "./env.js";

export const TOKEN = "a".repeat(64);

/** `pantheon web` on a free port of 127.0.0.1 over `dir`, closed when the test finishes. */
export async function startWeb(dir: string, token = TOKEN): Promise<WebServer> {
  const server = await serveWeb({ cwd: dir, env: testEnv(), port: 0, token });
  onTestFinished(() => server.close());
  return server;
}

export interface WebAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request as a browser (or an attacker's page) would send it: node's http, so the Host and
 * Origin headers are whatever the test says (fetch would not let it set Host).
 */
export function webGet(
  port: number,
  path: string,
  o: { method?: string; host?: string; headers?: Record<string, string> } = {},
): Promise<WebAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: o.method ?? "GET",
        headers: { host: o.host ?? `127.0.0.1:${port}`, ...o.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The token as the page's cookie carries it. */
export const withCookie = (server: WebServer) => ({
  headers: { cookie: `pantheon_web_${server.port}=${server.token}` },
});

/** The API's `data` for a tokened GET (fails the test on any other answer). */
export async function apiData<T = any>(server: WebServer, path: string): Promise<T> {
  const r = await webGet(server.port, path, withCookie(server));
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  return (JSON.parse(r.body) as { data: T }).data;
}

/**
 * Opens /api/events and resolves the events as they come: `next(name)` waits for the next
 * event of that name (no timeout of its own: the test's timeout bounds it, so no timed assertion).
 */
export function eventStream(
  server: WebServer,
): Promise<{ next: (name: string) => Promise<string>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        path: "/api/events",
        headers: { host: `127.0.0.1:${server.port}`, ...withCookie(server).headers },
      },
      (res) => {
        let buf = "";
        const seen: Array<{ name: string; data: string }> = [];
        let waiter: { name: string; done: (d: string) => void } | null = null;
        const offer = () => {
          if (!waiter) return;
          const i = seen.findIndex((e) => e.name === waiter!.name);
          if (i < 0) return;
          const [e] = seen.splice(i, 1);
          const w = waiter;
          waiter = null;
          w.done(e!.data);
        };
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          buf += c;
          for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
            if (name) seen.push({ name, data });
          }
          offer();
        });
        if (res.statusCode !== 200) reject(new Error(`events: ${res.statusCode}`));
        resolve({
          next: (name) => new Promise((done) => ((waiter = { name, done }), offer())),
          close: () => req.destroy(),
        });
      },
    );
    req.on("error", () => {});
    req.end();
  });
}
