import { timingSafeEqual } from "node:crypto";

/** What the guard reads of a request. */
export interface GuardInput {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  /** The `token` query parameter, when the URL has one. */
  queryToken: string | null;
}

export type GuardResult =
  | { ok: true; cookie: string | null }
  | { ok: false; status: 401 | 403 | 405; code: string; message: string; hint: string };

/** The cookie that carries the token after the first page load; named per port (cookies ignore ports). */
export const cookieName = (port: number) => `pantheon_web_${port}`;

/**
 * Every request passes here first (docs/security.md, "the web dashboard"): the Host must be this
 * server as 127.0.0.1 or localhost (a DNS-rebound name is refused), an Origin, when sent, must be
 * this server too, only GET and HEAD exist, and the token must come with the URL or the cookie
 * set from it. A first tokened request gets the cookie (HttpOnly, SameSite=Strict).
 */
export function guardRequest(r: GuardInput, o: { port: number; token: string }): GuardResult {
  const here = [`127.0.0.1:${o.port}`, `localhost:${o.port}`];
  if (r.host === undefined || !here.includes(r.host.toLowerCase())) {
    return {
      ok: false,
      status: 403,
      code: "E_WEB_HOST",
      message: "This dashboard answers only to 127.0.0.1 and localhost",
      hint: `open http://127.0.0.1:${o.port}/ with the token pantheon web printed`,
    };
  }
  if (r.origin !== undefined && !here.map((h) => `http://${h}`).includes(r.origin.toLowerCase())) {
    return {
      ok: false,
      status: 403,
      code: "E_WEB_ORIGIN",
      message: "Requests from other sites are refused",
      hint: "open the dashboard itself, not a page that calls it",
    };
  }
  if (r.method !== "GET" && r.method !== "HEAD") {
    return {
      ok: false,
      status: 405,
      code: "E_WEB_METHOD",
      message: `${r.method.slice(0, 20)} is not allowed: the dashboard is read-only`,
      hint: "change state with the pantheon CLI",
    };
  }
  if (r.queryToken !== null) {
    if (same(r.queryToken, o.token))
      return { ok: true, cookie: `${cookieName(o.port)}=${o.token}; HttpOnly; SameSite=Strict; Path=/` };
    return refused("The token in the URL is wrong", o.port);
  }
  const sent = cookieValue(r.cookie, cookieName(o.port));
  if (sent !== null && same(sent, o.token)) return { ok: true, cookie: null };
  return refused(sent === null ? "This dashboard needs the token pantheon web printed" : "The token is wrong", o.port);
}

function refused(message: string, port: number): GuardResult {
  return {
    ok: false,
    status: 401,
    code: "E_WEB_TOKEN",
    message,
    hint: `open the URL pantheon web printed (http://127.0.0.1:${port}/?token=…)`,
  };
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Compared in constant time: a byte-by-byte early exit would leak the token's prefix. */
function same(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
