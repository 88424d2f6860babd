import { SESSION_COOKIE, type WebSession } from "./web-session.js";

/** What the guard reads of a request. */
export interface GuardInput {
  method: string;
  /** The URL's path, without its query. */
  path: string;
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  /** The one-time token the request offers (`?token=`, or the `--open` file's form field), if any. */
  token: string | null;
}

export type GuardResult =
  /** `signIn`: the request brought the URL's token to `/`; `cookie` is the session to set (null: it has it). */
  | { ok: true; signIn: { cookie: string | null } | null }
  | { ok: false; status: 401 | 403 | 405; code: string; message: string; hint: string };

/** The Set-Cookie of a session: never readable by scripts, never sent by another site's page. */
export const sessionCookie = (value: string) => `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/`;

/**
 * Every request passes here first (docs/security.md, "the web dashboard"). The Host must be this
 * server's own name and port (`p-<random>.localhost:<port>`: a DNS-rebound name, and 127.0.0.1,
 * whose cookies every local port shares, are refused); an Origin, when sent, must be this server
 * (the `--open` file's form, a file:// page, sends "null" to `POST /` only); only GET and HEAD
 * exist, and POST `/`, where the token is exchanged. A request needs the session cookie, or brings
 * the one-time token to `/`, which gets it the cookie once.
 */
export function guardRequest(r: GuardInput, o: { host: string; session: WebSession }): GuardResult {
  // GET and POST only: a HEAD (a link checker's) must not spend the token without a cookie kept.
  const exchange = r.path === "/" && (r.method === "POST" || (r.method === "GET" && r.token !== null));
  if (r.host === undefined || r.host.toLowerCase() !== o.host) {
    return {
      ok: false,
      status: 403,
      code: "E_WEB_HOST",
      message: "This dashboard answers only to its own host name",
      hint: "open the URL pantheon web printed (http://p-….localhost:<port>/?token=…)",
    };
  }
  const origins = exchange && r.method === "POST" ? [`http://${o.host}`, "null"] : [`http://${o.host}`];
  if (r.origin !== undefined && !origins.includes(r.origin.toLowerCase())) {
    return {
      ok: false,
      status: 403,
      code: "E_WEB_ORIGIN",
      message: "Requests from other sites are refused",
      hint: "open the dashboard itself, not a page that calls it",
    };
  }
  if (r.method !== "GET" && r.method !== "HEAD" && !(r.method === "POST" && r.path === "/")) {
    return {
      ok: false,
      status: 405,
      code: "E_WEB_METHOD",
      message: `${r.method.slice(0, 20)} is not allowed: the dashboard is read-only`,
      hint: "change state with the pantheon CLI",
    };
  }
  const signedIn = o.session.holds(cookieValue(r.cookie, SESSION_COOKIE));
  if (r.token !== null && !exchange)
    return refused("The token opens / only", "open the URL pantheon web printed, as it is");
  if (exchange) {
    const offered = o.session.exchange(r.token ?? "");
    if (offered.result === "ok") return { ok: true, signIn: { cookie: sessionCookie(offered.cookie) } };
    // The browser that used the URL already may follow it again (a second click in the terminal).
    if (offered.result === "used" && signedIn) return { ok: true, signIn: { cookie: null } };
    return offered.result === "used"
      ? refused(
          "This URL's token was used already: it signs in one browser, once",
          "go back to the browser it opened, or restart pantheon web for a new URL",
        )
      : refused("The token in the URL is wrong", "open the URL pantheon web printed, as it is");
  }
  if (signedIn) return { ok: true, signIn: null };
  return refused(
    r.cookie?.includes(`${SESSION_COOKIE}=`)
      ? "The session is not this server's"
      : "This dashboard needs the URL pantheon web printed",
    "open the URL pantheon web printed (http://p-….localhost:<port>/?token=…); a restarted server prints a new one",
  );
}

function refused(message: string, hint: string): GuardResult {
  return { ok: false, status: 401, code: "E_WEB_TOKEN", message, hint };
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
