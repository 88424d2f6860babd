import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSignInFile } from "../../src/web/open-browser.js";
import { serveWeb, type WebServer } from "../../src/web/serve-web.js";
import { runBinAsync } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { largeProject, richProject } from "./fixture.js";

const ARTEFACTS = resolve(__dirname, "../../test-artifacts/web");
/** PANTHEON_WEB_DOCS=1 also refreshes the screenshots docs/web.md shows. */
const DOCS = process.env.PANTHEON_WEB_DOCS === "1" ? resolve(__dirname, "../../docs/web") : null;
const CHROMIUM = process.env.PANTHEON_CHROMIUM;

let browser: Browser;

/** The flags this machine's closed network needs (no background calls home), headless, no GPU. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP evil.test 127.0.0.1",
];

beforeAll(async () => {
  if (!CHROMIUM) throw new Error("run through npm run test:web (it finds or installs chromium)");
  mkdirSync(ARTEFACTS, { recursive: true });
  if (DOCS) mkdirSync(DOCS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterAll(async () => browser?.close());

async function shot(page: Page, name: string, o: { docs: boolean } = { docs: true }): Promise<void> {
  const file = join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (DOCS && o.docs) copyFileSync(file, join(DOCS, `${name}.png`));
}

/** A page whose console errors and uncaught exceptions are collected (the test requires none). */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, errors };
}

/**
 * Waits until a page expression is true. Not page.waitForFunction: while it polls, Playwright
 * evaluates a string predicate with eval inside the page, which the dashboard's CSP
 * (script-src 'self') forbids; it failed only when the first check was false. page.evaluate goes
 * through the debugger protocol, outside the page's CSP.
 */
async function until(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rendered = (page: Page, view: string) =>
  page.waitForSelector(`body[data-rendered="${view}"] .view[data-view="${view}"]`);

describe("pantheon web in Chromium", () => {
  let web: WebServer;
  let project: { dir: string; hephaestus: string };

  beforeAll(async () => {
    project = await richProject();
    web = await serveWeb({ cwd: project.dir, env: testEnv(), port: 0 });
  });
  afterAll(async () => {
    await web?.close();
    if (project) rmSync(project.dir, { recursive: true, force: true });
  });

  it("shows every view, follows a claim made in a terminal without a reload, and logs no error", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const { page, errors } = await watchedPage(context);
    await page.goto(web.url);
    await page.waitForURL(`http://${web.host}/`); // the token left the address bar for the cookie

    await rendered(page, "personas");
    await page.waitForSelector(".card.persona.live-starting"); // Hephaestus: a live summon record
    expect(await page.locator(".card.persona").count()).toBe(3);
    await shot(page, "personas");

    await page.click('nav a[data-view="epics"]');
    await rendered(page, "epics");
    expect(await page.locator(".card.epic").count()).toBe(2);
    await shot(page, "epics");

    await page.click('nav a[data-view="board"]');
    await rendered(page, "board");
    const hostile = page.locator(".task-card", { hasText: "hostile" });
    // The hostile title is text: shown literally, no element made from it, no script run.
    expect(await hostile.locator(".title").textContent()).toContain('<img src=x onerror="alert(1)">');
    expect(await page.locator(".task-card img, .task-card script").count()).toBe(0);
    // Labels and the acceptance criteria's progress on the cards.
    const sessionCard = page.locator(".task-card", { hasText: "Session expiry and refresh" });
    expect(await sessionCard.locator(".progress").textContent()).toBe("2/3");
    expect(await sessionCard.locator(".label").allTextContents()).toEqual(["auth"]);
    const apiCard = page.locator(".task-card", { hasText: "Implement the login API" });
    expect(await apiCard.locator(".label").allTextContents()).toEqual(["api", "auth"]);
    expect(await apiCard.locator(".progress").count()).toBe(0); // no criteria, no progress
    await shot(page, "board");

    await page.selectOption('select[name="label"]', "auth");
    await until(page, 'location.hash.includes("label=auth")');
    await until(page, 'document.querySelectorAll(".task-card").length === 2');
    expect((await page.locator(".task-card .title").allTextContents()).sort()).toEqual([
      "Implement the login API",
      "Session expiry and refresh",
    ]);
    await page.selectOption('select[name="label"]', "");
    await until(page, '!location.hash.includes("label=")');
    await rendered(page, "board");

    await page.selectOption('select[name="role"]', "engineer");
    await until(page, 'location.hash.includes("role=engineer")');
    await rendered(page, "board");
    const roles = await page.locator(".task-card .muted.small").allTextContents();
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.every((t) => t.startsWith("engineer"))).toBe(true);
    await page.fill('input[name="q"]', "refresh tokens");
    await page.press('input[name="q"]', "Enter");
    await until(page, 'location.hash.includes("q=refresh")');
    await until(page, 'document.querySelectorAll(".task-card").length === 1');
    expect(await page.locator(".task-card .title").textContent()).toBe("Session expiry and refresh"); // found by its note

    await page.click('.task-card a[href^="#/task/"]');
    await rendered(page, "task");
    await page.waitForSelector("ol.history > li");
    expect(await page.locator("h1").textContent()).toContain("Session expiry and refresh");
    expect(await page.locator("ul.notes").textContent()).toContain("Refresh tokens rotate on every use");
    expect(await page.locator("h2", { hasText: "Acceptance criteria" }).textContent()).toBe(
      "Acceptance criteria (2/3)",
    );
    expect(await page.locator("ol.criteria li.done").allTextContents()).toEqual([
      "☑ expired sessions get a 401",
      "☑ documented in docs/api.md",
    ]);
    expect(await page.locator("ol.criteria li.open").allTextContents()).toEqual([
      "☐ refresh tokens rotate on every use",
    ]);
    await shot(page, "task");

    await page.click('nav a[data-view="graph"]');
    await rendered(page, "graph");
    await page.waitForSelector("svg.graph .node.blocked");
    expect(await page.locator("svg.graph path.edge.blocking").count()).toBeGreaterThan(0);
    await page.selectOption('select[name="epic"]', { index: 1 });
    await until(page, 'location.hash.includes("epic=")');
    await page.waitForSelector("svg.graph .node");
    await shot(page, "graph");

    await page.click('nav a[data-view="charts"]');
    await rendered(page, "charts");
    await page.selectOption('select[name="epic"]', { index: 1 });
    await page.waitForSelector("svg.chart polyline");
    expect(await page.locator("svg.chart").count()).toBe(3);
    await shot(page, "charts");

    // A claim in a terminal reaches the open board through the event stream: no reload.
    await page.click('nav a[data-view="board"]');
    await page.goto(`http://${web.host}/#/board`);
    await rendered(page, "board");
    // Page code as strings: this file is type-checked without the DOM's types.
    await page.evaluate("window.stillHere = true");
    const todo = page.locator('.column[data-status="TODO"] .task-card', { hasText: "Chore 6" });
    const id = (await todo.getAttribute("data-task"))!;
    const claim = await runBinAsync(["--mission", project.hephaestus, "task", "claim", id], { cwd: project.dir }); // the bundle, as in a terminal
    expect(claim.exitCode, claim.stderr).toBe(0);
    await page.waitForSelector(`.column[data-status="UNDERWAY"] .task-card[data-task="${id}"]`);
    expect(await page.evaluate("window.stillHere")).toBe(true);
    expect(await page.locator("#live").textContent()).toMatch(/^live/);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs in through the --open file (a file:// page posting the token), once", async () => {
    const own = await serveWeb({ cwd: project.dir, env: testEnv(), port: 0 });
    const signIn = writeSignInFile(own);
    try {
      const context = await browser.newContext();
      const { page, errors } = await watchedPage(context);
      await page.goto(pathToFileURL(signIn.file).href);
      await page.waitForURL(`http://${own.host}/`);
      await rendered(page, "personas");
      expect(errors).toEqual([]);
      // The URL's token is spent: another browser (a fresh context) gets nothing from it.
      const other = await (await browser.newContext()).newPage();
      expect((await other.goto(own.url))?.status()).toBe(401);
      expect(await other.textContent("body")).toContain("used already");
      await other.context().close();
      await context.close();
    } finally {
      signIn.remove();
      await own.close();
    }
  });

  it("refuses the browser without the token, with a wrong token, under a foreign Host or 127.0.0.1, and a foreign page's request", async () => {
    const own = await serveWeb({ cwd: project.dir, env: testEnv(), port: 0 });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const none = await page.goto(`http://${own.host}/`);
      expect(none?.status()).toBe(401);
      expect(await page.textContent("body")).toContain("E_WEB_TOKEN");
      const wrong = await page.goto(`http://${own.host}/?token=${"0".repeat(64)}`);
      expect(wrong?.status()).toBe(401);
      // evil.test resolves to 127.0.0.1 (a DNS-rebinding attacker's name): the Host gives it away.
      const name = own.host.split(":")[0]!;
      for (const host of ["evil.test", "127.0.0.1", "localhost"]) {
        const rebound = await page.goto(own.url.replace(name, host));
        expect(rebound?.status(), host).toBe(403);
        expect(await page.textContent("body")).toContain("E_WEB_HOST");
      }
      await page.screenshot({ path: join(ARTEFACTS, "refused.png") });

      // The browser holds the session now. Another local service (any port of 127.0.0.1 or
      // localhost) never receives it: the cookie belongs to this server's own name.
      await page.goto(own.url);
      await page.waitForURL(`http://${own.host}/`);
      const cookies: string[] = [];
      const other = createServer((req, res) => {
        cookies.push(req.headers.cookie ?? "");
        res.end("<!doctype html><title>elsewhere</title>");
      });
      await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
      try {
        const port = (other.address() as { port: number }).port;
        await page.goto(`http://127.0.0.1:${port}/`);
        await page.goto(`http://localhost:${port}/`);
        expect(cookies.length).toBeGreaterThanOrEqual(2); // the pages (and the browser's favicon requests)
        expect(cookies.join(" ")).not.toContain("pantheon");
        // A page of another origin, in a browser that holds the cookie, asks for the API.
        const failed = page.waitForEvent("requestfailed", (r) => r.url().includes("/api/tasks"));
        const read = await page.evaluate(async (u) => {
          try {
            return await (await fetch(u, { credentials: "include" })).text();
          } catch (e) {
            return `refused: ${String(e)}`;
          }
        }, `http://${own.host}/api/tasks`);
        // The server answers 401 or 403 (test/integration/web); the browser lets the page read nothing.
        expect(read).toMatch(/^refused/);
        expect((await failed).failure()?.errorText).toBe("net::ERR_FAILED");
      } finally {
        other.close();
      }
    } finally {
      await context.close();
      await own.close();
    }
  });
});

describe("pantheon web at 10,000 tasks", () => {
  it("measures the first render of the board and of the personas view", async () => {
    const dir = await largeProject(10_000);
    const web = await serveWeb({ cwd: dir, env: testEnv(), port: 0 });
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const { page, errors } = await watchedPage(context);
      await page.goto(web.url); // sets the cookie; the views below are then fresh page loads
      await page.waitForURL(`http://${web.host}/`);
      await rendered(page, "personas");
      const figures: Record<string, number> = {};
      for (const view of ["board", "personas", "graph", "epics"]) {
        await page.goto(`http://${web.host}/#/${view}`);
        await page.reload(); // a fresh load of this view: nothing kept from the last
        await rendered(page, view);
        figures[view] = await page.evaluate(() => performance.getEntriesByName("pantheon-first-render")[0]!.startTime);
      }
      await page.goto(`http://${web.host}/#/board`);
      await page.reload();
      await rendered(page, "board");
      expect(await page.locator('.column[data-status="TODO"] .col-count').textContent()).toBe("10000");
      expect(await page.locator('.column[data-status="TODO"] .task-card').count()).toBe(50); // a page per column, the count at once
      await shot(page, "board-10000", { docs: false });
      // Recorded, never asserted (docs/performance.md): timing belongs to the bench, not a test.
      writeFileSync(join(ARTEFACTS, "first-render-10000.json"), `${JSON.stringify(figures, null, 2)}\n`);
      console.log(`first render at 10,000 tasks (ms from navigation start): ${JSON.stringify(figures)}`);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await web.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
