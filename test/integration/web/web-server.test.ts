import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initProject, type Project } from "../cli/fixture.js";
import { writeSummonRecord } from "../../../src/services/summon-record.js";
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

  it("a bad id is a 404 with the CLI's message; an unknown route a 404 JSON; a bad query value a 400", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    for (const [path, argv] of [
      ["/api/tasks/ENG-H-0099", ["task", "show", "ENG-H-0099"]],
      ["/api/tasks/nonsense", ["task", "show", "nonsense"]],
      ["/api/epics/EPC-H-0042", ["epic", "show", "EPC-H-0042"]],
      ["/api/tasks/99/history", ["task", "history", "99"]],
    ] as const) {
      const r = await webGet(web.port, path, withCookie(web));
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
      const r = await webGet(web.port, path, withCookie(web));
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_ROUTE");
    }
    const bad = await webGet(web.port, "/api/tasks?limit=many", withCookie(web));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe("E_USAGE");
  });

  it("hostile record text leaves as JSON data only: no HTML type, nosniff, a CSP without inline script", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const r = await webGet(web.port, "/api/tasks/3", withCookie(web));
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(r.body).data.title).toBe(HOSTILE);
    const page = await webGet(web.port, "/", withCookie(web));
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    expect(page.headers["content-security-policy"]).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/); // the page's only script is /app.js
    expect(page.body).toContain('<script src="/app.js" defer></script>');
    const js = await webGet(web.port, "/app.js", withCookie(web));
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.body).not.toMatch(/innerHTML/);
  });
});

describe("pantheon web: safe by default", () => {
  it("listens on 127.0.0.1 only", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir);
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${TOKEN}`);
  });

  it("refuses a request without the token, with a wrong token or a wrong cookie; the tokened page sets the cookie", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir);
    for (const [path, o] of [
      ["/api/tasks", {}],
      ["/", {}],
      ["/app.js", {}],
      ["/api/events", {}],
      [`/api/tasks?token=${"b".repeat(64)}`, {}],
      ["/api/tasks?token=", {}],
      ["/api/tasks", { headers: { cookie: `pantheon_web_${web.port}=${"b".repeat(64)}` } }],
      ["/api/tasks", { headers: { cookie: `pantheon_web_1=${TOKEN}` } }],
    ] as const) {
      const r = await webGet(web.port, path, o);
      expect(r.status, `${path} ${JSON.stringify(o)}`).toBe(401);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_TOKEN");
    }
    const first = await webGet(web.port, `/?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe("/");
    expect(first.headers["set-cookie"]).toEqual([
      `pantheon_web_${web.port}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
    expect(
      (await webGet(web.port, "/api/tasks", { headers: { cookie: first.headers["set-cookie"]![0]!.split(";")[0]! } }))
        .status,
    ).toBe(200);
    expect((await webGet(web.port, `/api/tasks?token=${TOKEN}`)).status).toBe(200);
  });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin, even with the token", async () => {
    const p = await initProject();
    const web = await startWeb(p.dir);
    for (const host of [
      "evil.example:" + web.port,
      `127.0.0.1:${web.port + 1}`,
      "127.0.0.1",
      `localhost.evil.example:${web.port}`,
      `[::1]:${web.port}`,
    ]) {
      const r = await webGet(web.port, `/api/tasks?token=${TOKEN}`, { host });
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_HOST");
    }
    expect((await webGet(web.port, `/api/tasks?token=${TOKEN}`, { host: `localhost:${web.port}` })).status).toBe(200);
    for (const origin of [
      "http://evil.example",
      `http://127.0.0.1:${web.port + 1}`,
      "null",
      `https://127.0.0.1:${web.port}`,
    ]) {
      const r = await webGet(web.port, "/api/tasks", { headers: { ...withCookie(web).headers, origin } });
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe("E_WEB_ORIGIN");
    }
    expect(
      (
        await webGet(web.port, "/api/tasks", {
          headers: { ...withCookie(web).headers, origin: `http://127.0.0.1:${web.port}` },
        })
      ).status,
    ).toBe(200);
  });

  it("has no write endpoint: every method but GET and HEAD is a 405, and the ref is untouched", async () => {
    const p = await seeded();
    const web = await startWeb(p.dir);
    const before = stateRef(p.dir);
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const path of ["/api/tasks", "/api/tasks/1", "/"]) {
        const r = await webGet(web.port, path, { method, ...withCookie(web) });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow).toBe("GET, HEAD");
      }
    }
    for (const path of ["/api/tasks", "/api/events", "/"]) {
      const head = await webGet(web.port, path, { method: "HEAD", ...withCookie(web) });
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
