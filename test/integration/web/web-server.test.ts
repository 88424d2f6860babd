import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initProject, type Project } from "../cli/fixture.js";
import { writeSummonRecord } from "../../../src/services/live/summon-record.js";
import { CACHE_VERSION } from "../../../src/store/cache/read-cache.js";
import { git, stateRef } from "../../helpers/repo.js";
import { apiData, eventStream, startWeb, TOKEN, webGet, withCookie } from "../../helpers/web.js";

const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>\u001b[31m';

/** A project with an epic, dependent tasks (one blocked), a mission and a hostile title. */
async function seeded(): Promise<Project & { mission: string }> {
  const p = await initProject();
  await p.ok(["epic", "create", "--title", "Login", "--priority", "high"]);
  await p.ok([
    "task",
    "create",
    "--title",
    "Design login",
    "--role",
    "architect",
    "--priority",
    "high",
    "--epic",
    "EPC-H-0001",
  ]);
  await p.ok([
    "task",
    "create",
    "--title",
    "Build login",
    "--role",
    "engineer",
    "--priority",
    "high",
    "--depends-on",
    "ARC-H-0001",
    "--epic",
    "EPC-H-0001",
    "--label",
    "api",
    "--ac",
    "returns 404 for unknown ids",
  ]);
  await p.ok(["task", "create", "--title", HOSTILE, "--role", "engineer", "--description", HOSTILE]);
  const m = await p.json<{ id: string }>(
    ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"],
    "mission",
  );
  return { ...p, mission: m.id };
}

describe("pantheon web: the API answers from the CLI's services", () => {
  it("/api/tasks is task list --json; /api/tasks/ID is task show --json; epics, dashboard, graph, charts", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    expect(await apiData(web, "/api/tasks")).toEqual(await p.json(["task", "list"], "tasks"));
    expect(await apiData(web, "/api/tasks?role=engineer&status=todo")).toEqual(
      await p.json(["task", "list", "--role", "engineer", "--status", "todo"], "tasks"),
    );
    expect(await apiData(web, "/api/tasks?label=api")).toEqual(
      await p.json(["task", "list", "--label", "api"], "tasks"),
    );
    expect((await apiData(web, "/api/tasks?label=api"))[0]).toMatchObject({
      labels: ["api"],
      acceptance: [{ text: "returns 404 for unknown ids", done: false }],
    });
    expect(await apiData(web, "/api/tasks/ENG-H-0002")).toEqual(await p.json(["task", "show", "ENG-H-0002"], "task"));
    expect(await apiData(web, "/api/tasks/2/history")).toEqual(await p.json(["task", "history", "2"], "history"));
    expect(await apiData(web, "/api/epics")).toEqual(await p.json(["epic", "list"], "epics"));
    expect(await apiData(web, "/api/reviews")).toEqual(await p.json(["review", "list"], "reviews"));
    const dash = await apiData(web, "/api/dashboard");
    expect(dash.missions.map((m: { persona: string }) => m.persona)).toEqual(["Hephaestus"]);
    const graph = await apiData(web, "/api/graph");
    expect(graph.scope).toEqual({ kind: "blocked", id: null });
    expect(graph.nodes.map((n: { id: string; blocked: boolean }) => [n.id, n.blocked])).toEqual([
      ["ENG-H-0002", true],
      ["ARC-H-0001", false],
    ]);
    expect(graph.edges).toEqual([{ from: "ENG-H-0002", to: "ARC-H-0001", blocking: true }]);
    const epicGraph = await apiData(web, "/api/graph?epic=EPC-H-0001");
    expect(epicGraph.scope).toEqual({ kind: "epic", id: "EPC-H-0001" });
    expect(epicGraph.total).toBe(2);
    const charts = await apiData(web, "/api/charts?epic=1");
    expect(charts.epic).toBe("EPC-H-0001");
    expect(charts.perDay.reduce((n: number, d: { opened: number }) => n + d.opened, 0)).toBe(3);
    expect(charts.burndown.at(-1)).toMatchObject({ remaining: 2, total: 2 });
  });

  it("a claim and a completion show in the charts' history (claim to COMPLETE per role)", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const before = await apiData(web, "/api/charts");
    expect(before.cycleTimes).toEqual([]);
    await p.ok(["--mission", p.mission, "task", "claim", "ENG-M-0003"]);
    await p.ok(["--mission", p.mission, "task", "close", "ENG-M-0003"]);
    const after = await apiData(web, "/api/charts");
    expect(after.cycleTimes).toEqual([expect.objectContaining({ role: "engineer", count: 1 })]);
    expect(after.perDay.at(-1).closed).toBe(1);
  });

  it("brings the charts' history forward commit by commit: an old commit it no longer has to read changes nothing", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    await apiData(web, "/api/charts");
    const old = git(p.dir, "rev-list", "--reverse", "refs/coordination/main").trim().split("\n").slice(1, 3);
    await p.ok(["--mission", p.mission, "task", "claim", "ENG-M-0003"]);
    await p.ok(["--mission", p.mission, "task", "close", "ENG-M-0003"]);
    // Commits from before the server's first answer: a walk of the log would need them again
    // (their journal lines gone too, as past the journal's size limit).
    rmSync(join(p.dir, ".git", "pantheon", "cache", `journal-v${CACHE_VERSION}.ndjson`));
    for (const oid of old)
      for (const base of [join(p.dir, ".git", "objects"), join(p.dir, ".git", "objects", "pantheon")])
        rmSync(join(base, oid.slice(0, 2), oid.slice(2)), { force: true });
    const r = await webGet(web, "/api/charts", withCookie(web));
    expect(r.status, r.body).toBe(200);
    const after = JSON.parse(r.body).data;
    expect(after.cycleTimes).toEqual([expect.objectContaining({ role: "engineer", count: 1 })]);
    expect(after.perDay.at(-1).closed).toBe(1);
  });

  it("a bad id is a 404 with the CLI's message; an unknown route a 404 JSON; a bad query value a 400", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    for (const [path, argv] of [
      ["/api/tasks/ENG-H-0099", ["task", "show", "ENG-H-0099"]],
      ["/api/tasks/nonsense", ["task", "show", "nonsense"]],
      ["/api/epics/EPC-H-0042", ["epic", "show", "EPC-H-0042"]],
      ["/api/tasks/99/history", ["task", "history", "99"]],
    ] as const) {
      const r = await webGet(web, path, withCookie(web));
      const cli = await p.run([...argv, "--json"]);
      expect(r.status, path).toBe(404);
      expect(r.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(r.body)).toEqual(JSON.parse(cli.stderr));
    }
    for (const path of [
      "/api/nothing",
      "/api/dashboard/extra",
      "/nothing.js",
      "/api/history",
      "/api/constructor",
      "/api/__proto__",
      "/api/toString",
      "/api/tasks/%E0%A4%A/history",
      "/api/tasks//history",
      "/api/tasks/1/history/x",
      "/api/",
      "/api",
    ]) {
      const r = await webGet(web, path, withCookie(web));
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_ROUTE");
    }
    const bad = await webGet(web, "/api/tasks?limit=many", withCookie(web));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe("E_USAGE");
  });

  it("hostile record text leaves as JSON data only: no HTML type, nosniff, a CSP without inline script", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const r = await webGet(web, "/api/tasks/3", withCookie(web));
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(r.body).data.title).toBe(HOSTILE);
    const page = await webGet(web, "/", withCookie(web));
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    expect(page.headers["content-security-policy"]).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/); // the page's only script is /app.js
    expect(page.body).toContain('<script src="/app.js" defer></script>');
    const js = await webGet(web, "/app.js", withCookie(web));
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.body).not.toMatch(/innerHTML/);
  });
});

describe("pantheon web: safe by default", () => {
  it("listens on the loopback only, under a host name of its own, and holds its port on ::1 too", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir);
    expect(web.url).toMatch(new RegExp(`^http://p-[0-9a-f]{16}\\.localhost:${web.port}/\\?token=${TOKEN}$`));
    expect(web.url.startsWith(`http://${web.host}/`)).toBe(true);
    // Cookies ignore ports: one set for 127.0.0.1 or localhost would go to every local service.
    for (const host of [`127.0.0.1:${web.port}`, `localhost:${web.port}`]) {
      const r = await webGet(web, "/api/tasks", { host, ...withCookie(web) });
      expect(r.status, host).toBe(403);
    }
    // A browser may try ::1 first for *.localhost: nobody else may take that port.
    const squatter = createServer();
    const taken = await new Promise<string>((resolve) => {
      squatter.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "?"));
      squatter.listen(web.port, "::1", () => resolve("listening"));
    });
    squatter.close();
    if (taken !== "EADDRNOTAVAIL") {
      expect(taken).toBe("EADDRINUSE");
      expect((await webGet(web, "/api/tasks", { address: "::1", ...withCookie(web) })).status).toBe(200);
    }
  });

  it("refuses a request without a session, with a wrong token or a wrong cookie; the token is not the cookie", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir, { signIn: false });
    for (const [path, o] of [
      ["/api/tasks", {}],
      ["/", {}],
      ["/app.js", {}],
      ["/api/events", {}],
      [`/?token=${"b".repeat(64)}`, {}],
      ["/?token=", {}],
      // The token opens / only: elsewhere it is refused, and not spent.
      [`/api/tasks?token=${TOKEN}`, {}],
      [`/app.js?token=${TOKEN}`, {}],
      [`/?token=${TOKEN}`, { method: "HEAD" }],
      ["/api/tasks", { headers: { cookie: `pantheon_session=${TOKEN}` } }],
      ["/api/tasks", { headers: { cookie: `pantheon_web_${web.port}=${TOKEN}` } }],
    ] as const) {
      const r = await webGet(web, path, o);
      expect(r.status, `${path} ${JSON.stringify(o)}`).toBe(401);
      if (r.body) expect(JSON.parse(r.body).error.code).toBe("E_WEB_TOKEN");
    }
    expect((await webGet(web, `/?token=${TOKEN}`)).status).toBe(200); // still unspent
  });

  it("the URL's token is one-time: exchanged at / for a session cookie (HttpOnly, SameSite=Strict), then refused", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir, { signIn: false });
    const first = await webGet(web, `/?token=${TOKEN}`);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("text/html; charset=utf-8");
    // The page loads / again from this origin (a navigation of its own carries the Strict cookie).
    expect(first.body).toContain('<meta http-equiv="refresh" content="0;url=/">');
    const [set] = first.headers["set-cookie"]!;
    expect(set).toMatch(/^pantheon_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(set).not.toContain(TOKEN);
    await web.exchanged;
    const cookie = { headers: { cookie: set!.split(";")[0]! } };
    expect((await webGet(web, "/api/tasks", cookie)).status).toBe(200);
    // A second use, by any other browser (or anyone who read the URL), opens nothing.
    for (const again of [
      () => webGet(web, `/?token=${TOKEN}`),
      () =>
        webGet(web, "/", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
          body: `token=${TOKEN}`,
        }),
    ]) {
      const r = await again();
      expect(r.status).toBe(401);
      expect(r.headers["set-cookie"]).toBeUndefined();
      expect(JSON.parse(r.body).error).toMatchObject({
        code: "E_WEB_TOKEN",
        message: "This URL's token was used already: it signs in one browser, once",
      });
    }
    // The browser that used it may follow the link again: it has its session, and gets no new one.
    const back = await webGet(web, `/?token=${TOKEN}`, cookie);
    expect(back.status).toBe(200);
    expect(back.headers["set-cookie"]).toBeUndefined();
    expect((await webGet(web, `/?token=${"b".repeat(64)}`, cookie)).status).toBe(401);
  });

  it("the --open file's form: POST / with the token (Origin null, a file page) gets the session; no other POST exists", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir, { signIn: false });
    const form = (origin: string, body = `token=${TOKEN}`) =>
      webGet(web, "/", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body,
      });
    expect((await form("http://evil.example")).status).toBe(403);
    expect((await form("null", `token=${"b".repeat(64)}`)).status).toBe(401);
    expect((await form("null", `token=${TOKEN}${"&x=1".repeat(300)}`)).status).toBe(401); // a body past 1 KB is not read
    const r = await form("null");
    expect(r.status).toBe(200);
    expect(r.headers["set-cookie"]![0]).toMatch(/^pantheon_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = { cookie: r.headers["set-cookie"]![0]!.split(";")[0]! };
    expect((await webGet(web, "/api/tasks", { headers: cookie })).status).toBe(200);
    const post = await webGet(web, "/api/tasks", {
      method: "POST",
      headers: { ...cookie, origin: `http://${web.host}` },
    });
    expect(post.status).toBe(405);
  });

  it("refuses a foreign Host (DNS rebinding, another server's name, 127.0.0.1) and a foreign Origin, even with the session", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir);
    const name = web.host.split(":")[0]!;
    for (const host of [
      "evil.example:" + web.port,
      `${name}:${web.port + 1}`,
      name,
      `p-0123456789abcdef.localhost:${web.port}`,
      `127.0.0.1:${web.port}`,
      `localhost:${web.port}`,
      `${name}.evil.example:${web.port}`,
      `[::1]:${web.port}`,
    ]) {
      const r = await webGet(web, "/api/tasks", { host, ...withCookie(web) });
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_HOST");
    }
    expect((await webGet(web, "/api/tasks", { host: web.host.toUpperCase(), ...withCookie(web) })).status).toBe(200);
    for (const origin of [
      "http://evil.example",
      `http://${name}:${web.port + 1}`,
      `http://127.0.0.1:${web.port}`,
      "null",
      `https://${web.host}`,
    ]) {
      const r = await webGet(web, "/api/tasks", { headers: { ...withCookie(web).headers, origin } });
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_ORIGIN");
    }
    expect(
      (await webGet(web, "/api/tasks", { headers: { ...withCookie(web).headers, origin: `http://${web.host}` } }))
        .status,
    ).toBe(200);
  });

  it("has no write endpoint: every method but GET and HEAD is a 405, and the ref is untouched", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const before = stateRef(p.dir);
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const path of ["/api/tasks", "/api/tasks/1", "/"]) {
        if (method === "POST" && path === "/") continue; // the token's exchange (above): no state changes there
        const r = await webGet(web, path, { method, ...withCookie(web) });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow).toBe("GET, HEAD");
      }
    }
    for (const path of ["/api/tasks", "/api/events", "/"]) {
      const head = await webGet(web, path, { method: "HEAD", ...withCookie(web) });
      expect(head.status, path).toBe(200);
      expect(head.body).toBe("");
    }
    expect(stateRef(p.dir)).toBe(before);
  });

  it("a port in use is a usage error naming it, with a hint, and nothing is written", async () => {
    const p = await initProject();
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    const port = (busy.address() as { port: number }).port;
    try {
      const before = stateRef(p.dir);
      const r = await p.run(["web", "--port", String(port)]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`✗ Port ${port} is in use on 127.0.0.1`);
      expect(r.stderr).toContain("--port 0");
      expect(stateRef(p.dir)).toBe(before);
      const big = await p.run(["web", "--port", "70000"]);
      expect(big.exitCode).toBe(2);
      expect(big.stderr).toContain("--port must be at most 65535");
    } finally {
      busy.close();
    }
  });
});

describe("pantheon web: live", () => {
  it("tells an open page when a CLI mutation moves the ref (a task claim)", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const events = await eventStream(web);
    try {
      const hello = JSON.parse(await events.next("hello"));
      expect(hello.version).toContain(stateRef(p.dir));
      await p.ok(["--mission", p.mission, "task", "claim", "ENG-M-0003"]);
      const change = JSON.parse(await events.next("change"));
      expect(change.version).toContain(stateRef(p.dir));
      expect((await apiData(web, "/api/tasks/3")).status).toBe("UNDERWAY");
    } finally {
      events.close();
    }
  });
});

describe("pantheon web: live states", () => {
  it("tells an open page when a persona's live state changes (a file in <commondir>/pantheon/live/), and the dashboard carries it", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const events = await eventStream(web);
    try {
      await events.next("hello");
      const mission = JSON.parse(git(p.dir, "cat-file", "-p", "refs/coordination/main:missions/01/1.json")) as {
        uid: string;
      };
      writeSummonRecord(join(p.dir, ".git"), mission, {
        mission: p.mission,
        assistant: "claude",
        sessionId: null,
        since: new Date().toISOString(),
      });
      const change = JSON.parse(await events.next("change"));
      expect(change.version).toMatch(/\.json:/);
      const dash = await apiData(web, "/api/dashboard");
      expect(dash.missions[0].live).toMatchObject({ state: "starting", assistant: "claude" });
    } finally {
      events.close();
    }
  });
});
