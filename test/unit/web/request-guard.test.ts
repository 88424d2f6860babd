import { describe, expect, it } from "vitest";
import { guardRequest } from "../../../src/web/request-guard.js";

const o = { port: 4000, token: "t".repeat(64) };
const base = {
  method: "GET",
  host: "127.0.0.1:4000",
  origin: undefined,
  cookie: `pantheon_web_4000=${o.token}`,
  queryToken: null,
};

describe("guardRequest", () => {
  it("lets this server's page in by its cookie or its token", () => {
    expect(guardRequest(base, o)).toEqual({ ok: true, cookie: null });
    expect(guardRequest({ ...base, host: "LOCALHOST:4000", origin: "http://localhost:4000" }, o).ok).toBe(true);
    expect(guardRequest({ ...base, cookie: undefined, queryToken: o.token }, o)).toEqual({
      ok: true,
      cookie: `pantheon_web_4000=${o.token}; HttpOnly; SameSite=Strict; Path=/`,
    });
  });

  it.each([
    ["a foreign Host", { host: "evil.example:4000" }, 403, "E_WEB_HOST"],
    ["no Host", { host: undefined }, 403, "E_WEB_HOST"],
    ["another port", { host: "127.0.0.1:4001" }, 403, "E_WEB_HOST"],
    ["a foreign Origin", { origin: "http://evil.example" }, 403, "E_WEB_ORIGIN"],
    ["an https Origin", { origin: "https://127.0.0.1:4000" }, 403, "E_WEB_ORIGIN"],
    ["POST", { method: "POST" }, 405, "E_WEB_METHOD"],
    ["no token", { cookie: undefined }, 401, "E_WEB_TOKEN"],
    ["a wrong cookie", { cookie: `pantheon_web_4000=${"x".repeat(64)}` }, 401, "E_WEB_TOKEN"],
    ["another port's cookie", { cookie: `pantheon_web_4001=${o.token}` }, 401, "E_WEB_TOKEN"],
    ["a shorter token", { cookie: undefined, queryToken: "t" }, 401, "E_WEB_TOKEN"],
    ["a wrong token beside a good cookie", { queryToken: "x".repeat(64) }, 401, "E_WEB_TOKEN"],
  ] as const)("refuses %s", (_name, over, status, code) => {
    expect(guardRequest({ ...base, ...over }, o)).toMatchObject({ ok: false, status, code });
  });
});
