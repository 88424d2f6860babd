import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { onTestFinished } from "vitest";
import { serveWeb, type WebServer } from "../../src/web/serve-web.js";
import { testEnv } from "./env.js";

export const TOKEN = "a".repeat(64);

/** A running server and the session cookie its one-time token was exchanged for (empty: not yet). */
export type TestWeb = WebServer & { cookie: string };

/**
 * `pantheon web` on a free loopback port over `dir`, closed when the test finishes; signed in
 * (its token exchanged at `/`, as a browser does) unless `signIn` is false.
 */
export async function startWeb(dir: string, o: { signIn?: boolean } = {}): Promise<TestWeb> {
  const server = await serveWeb({ cwd: dir, env: testEnv(), port: 0, token: TOKEN });
  onTestFinished(() => server.close());
  const web = Object.assign(server, { cookie: "" });
  if (o.signIn !== false) web.cookie = await signIn(web, `/?token=${TOKEN}`);
  return web;
}

/** Exchanges a one-time token (GET `path`) and returns the `name=value` of the cookie it got. */
export async function signIn(server: Target, path: string): Promise<string> {
  const r = await webGet(server, path);
  const set = r.headers["set-cookie"]?.[0];
  if (r.status !== 200 || !set) throw new Error(`sign-in: ${r.status} ${r.body}`);
  return set.split(";")[0]!;
}

export interface WebAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Where a request goes: the server's port, and the Host it is sent under (its own name by default). */
export interface Target {
  port: number;
  host: string;
}

/**
 * One request as a browser (or an attacker's page) would send it: node's http to 127.0.0.1 (or
 * `address`), so the Host and Origin headers are whatever the test says (fetch would not let it
 * set Host).
 */
export function webGet(
  server: Target,
  path: string,
  o: { method?: string; host?: string; address?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WebAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: o.address ?? "127.0.0.1",
        port: server.port,
        path,
        method: o.method ?? "GET",
        headers: { host: o.host ?? server.host, ...o.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

/** The session cookie, as the signed-in page sends it. */
export const withCookie = (server: TestWeb) => ({ headers: { cookie: server.cookie } });

/** The API's `data` for a signed-in GET (fails the test on any other answer). */
export async function apiData<T = any>(server: TestWeb, path: string): Promise<T> {
  const r = await webGet(server, path, withCookie(server));
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  return (JSON.parse(r.body) as { data: T }).data;
}

/**
 * Opens /api/events and resolves the events as they come: `next(name)` waits for the next
 * event of that name (no timeout of its own: the test's timeout bounds it, so no timed assertion).
 */
export function eventStream(server: TestWeb): Promise<{ next: (name: string) => Promise<string>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        path: "/api/events",
        headers: { host: server.host, ...withCookie(server).headers },
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
