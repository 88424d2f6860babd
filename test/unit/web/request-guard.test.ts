import { describe, expect, it } from "vitest";
import { guardRequest, type GuardInput } from "../../../src/web/request-guard.js";
import { WebSession } from "../../../src/web/web-session.js";

const TOKEN = "t".repeat(64);
const HOST = "p-0123456789abcdef.localhost:4000";

/** A server whose token was exchanged: its session cookie in `cookie`. */
function signedIn(): { o: { host: string; session: WebSession }; cookie: string } {
  const session = new WebSession(TOKEN);
  const got = session.exchange(TOKEN);
  if (got.result !== "ok") throw new Error("no session");
  return { o: { host: HOST, session }, cookie: `pantheon_session=${got.cookie}` };
}

const request = (over: Partial<GuardInput>, cookie: string): GuardInput => ({
  method: "GET",
  path: "/api/tasks",
  host: HOST,
  origin: undefined,
  cookie,
  token: null,
  ...over,
});

describe("guardRequest", () => {
  it("lets this server's page in by its session cookie; the token signs in once", () => {
    const { o, cookie } = signedIn();
    expect(guardRequest(request({}, cookie), o)).toEqual({ ok: true, signIn: null });
    expect(guardRequest(request({ host: HOST.toUpperCase(), origin: `http://${HOST}` }, cookie), o).ok).toBe(true);
    const fresh = { host: HOST, session: new WebSession(TOKEN) };
    const first = guardRequest(request({ path: "/", token: TOKEN }, ""), fresh);
    expect(first).toMatchObject({
      ok: true,
      signIn: { cookie: expect.stringMatching(/^pantheon_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/) },
    });
    expect(guardRequest(request({ path: "/", token: TOKEN }, ""), fresh)).toMatchObject({ ok: false, status: 401 });
  });

  it.each([
    ["a foreign Host", { host: "evil.example:4000" }, 403, "E_WEB_HOST"],
    ["no Host", { host: undefined }, 403, "E_WEB_HOST"],
    ["another port", { host: "p-0123456789abcdef.localhost:4001" }, 403, "E_WEB_HOST"],
    ["127.0.0.1", { host: "127.0.0.1:4000" }, 403, "E_WEB_HOST"],
    ["localhost", { host: "localhost:4000" }, 403, "E_WEB_HOST"],
    ["a foreign Origin", { origin: "http://evil.example" }, 403, "E_WEB_ORIGIN"],
    ["an https Origin", { origin: `https://${HOST}` }, 403, "E_WEB_ORIGIN"],
    ["Origin null on a GET", { origin: "null" }, 403, "E_WEB_ORIGIN"],
    ["POST elsewhere than /", { method: "POST" }, 405, "E_WEB_METHOD"],
    ["no cookie", { cookie: undefined }, 401, "E_WEB_TOKEN"],
    ["a wrong cookie", { cookie: `pantheon_session=${"x".repeat(64)}` }, 401, "E_WEB_TOKEN"],
    ["the token as the cookie", { cookie: `pantheon_session=${TOKEN}` }, 401, "E_WEB_TOKEN"],
    ["the token elsewhere than /", { token: TOKEN }, 401, "E_WEB_TOKEN"],
    ["a wrong token beside a good cookie", { path: "/", token: "x".repeat(64) }, 401, "E_WEB_TOKEN"],
    ["a POST to / without a token", { path: "/", method: "POST" }, 401, "E_WEB_TOKEN"],
  ] as const)("refuses %s", (_name, over, status, code) => {
    const { o, cookie } = signedIn();
    expect(guardRequest(request(over, cookie), o)).toMatchObject({ ok: false, status, code });
  });

  it("accepts Origin null only for the token's POST to / (the --open file is a file:// page)", () => {
    const o = { host: HOST, session: new WebSession(TOKEN) };
    expect(guardRequest(request({ method: "POST", path: "/", origin: "null", token: TOKEN }, ""), o).ok).toBe(true);
  });
});
