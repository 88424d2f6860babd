import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeRepo, tempDir } from "../helpers/repo.js";
import { webGet } from "../helpers/web.js";

/** Starts the bundle's `pantheon web` and resolves once it printed its URL. */
function startBin(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, "web", ...args], { cwd: dir, env: testEnv(env) });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const closed = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/p-[0-9a-f]{16}\.localhost:\d+\/\?token=[0-9a-f]{64}/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on("close", () => reject(new Error(`exited: ${out}${err}`)));
  });
  return { child, url, closed, output: () => out, errors: () => err };
}

/** Polls `read` until it returns a value (the test's timeout bounds the wait: no timed assertion). */
async function waitFor<T>(read: () => T | null): Promise<T> {
  for (;;) {
    try {
      const v = read();
      if (v !== null) return v;
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("pantheon web (the bundle, as a user runs it)", () => {
  it("prints its URL with a 64-hex-digit one-time token, serves the page and the API, and stops on SIGTERM with exit 0", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    expect(runBin(["task", "create", "--title", "Add login", "--role", "engineer"], { cwd: dir }).exitCode).toBe(0);
    const web = startBin(dir, ["--port", "0"]);
    const url = new URL(await web.url);
    expect(web.output()).toMatch(/^✓ Pantheon dashboard on http:\/\/p-[0-9a-f]{16}\.localhost:\d+\/\?token=/);
    const server = { port: Number(url.port), host: url.host };
    const page = await webGet(server, `/?token=${url.searchParams.get("token")}`);
    expect(page.status).toBe(200);
    const cookie = page.headers["set-cookie"]![0]!.split(";")[0]!;
    const tasks = await webGet(server, "/api/tasks", { headers: { cookie } });
    expect(JSON.parse(tasks.body).data.map((t: { id: string }) => t.id)).toEqual(["ENG-M-0001"]);
    expect((await webGet(server, "/api/tasks")).status).toBe(401);
    expect((await webGet(server, `/?token=${url.searchParams.get("token")}`)).status).toBe(401); // spent
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
    expect(web.errors()).not.toContain(url.searchParams.get("token")!);
  });

  it("--open gives the opener a private sign-in file, never the token: the file signs the browser in, then is removed", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const bin = tempDir();
    const log = join(bin, "opened.json");
    // A stand-in browser: records its argv (what `ps` shows), the file's mode, then submits the
    // file's form as a browser does from a file:// page (Origin: null).
    writeFileSync(
      join(bin, "xdg-open"),
      `#!${process.execPath}
const fs = require("fs"), http = require("http");
const file = process.argv[2];
const html = fs.readFileSync(file, "utf8");
const action = new URL(/action="([^"]+)"/.exec(html)[1]);
const token = /name="token" value="([^"]+)"/.exec(html)[1];
const mode = (fs.statSync(file).mode & 0o777).toString(8), dirMode = (fs.statSync(require("path").dirname(file)).mode & 0o777).toString(8);
const req = http.request({ host: "127.0.0.1", port: action.port, path: action.pathname, method: "POST",
  headers: { host: action.host, origin: "null", "content-type": "application/x-www-form-urlencoded" } }, (res) => {
  res.resume();
  res.on("end", () => fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), mode, dirMode, status: res.statusCode, cookie: res.headers["set-cookie"] })));
});
req.end("token=" + token);
`,
    );
    chmodSync(join(bin, "xdg-open"), 0o755);
    const web = startBin(dir, ["--open"], { PATH: `${bin}:${process.env.PATH}` });
    const url = new URL(await web.url);
    const token = url.searchParams.get("token")!;
    // The opener runs detached; its file appears once it has run (the test's timeout bounds the wait).
    const opened = await waitFor(() => JSON.parse(readFileSync(log, "utf8")) as Record<string, any>);
    expect(opened.argv).toHaveLength(1);
    expect(opened.argv[0]).not.toContain(token);
    expect(opened.argv[0]).toMatch(/open\.html$/);
    expect([opened.mode, opened.dirMode]).toEqual(["600", "700"]);
    expect(opened.status).toBe(200);
    expect(opened.cookie[0]).toMatch(/^pantheon_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict/);
    // The exchange happened: the file that held the token is gone, and the URL is spent.
    await waitFor(() => (existsSync(opened.argv[0]) ? null : true));
    const server = { port: Number(url.port), host: url.host };
    expect((await webGet(server, `/?token=${token}`)).status).toBe(401);
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
  });

  it("--open removes its sign-in file when the server stops before any browser used it", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const bin = tempDir();
    const log = join(bin, "argv.json");
    writeFileSync(
      join(bin, "xdg-open"),
      `#!${process.execPath}\nrequire("fs").writeFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)));\n`,
    );
    chmodSync(join(bin, "xdg-open"), 0o755);
    const web = startBin(dir, ["--open"], { PATH: `${bin}:${process.env.PATH}` });
    await web.url;
    const [file] = await waitFor(() => JSON.parse(readFileSync(log, "utf8")) as string[]);
    expect(existsSync(file!)).toBe(true);
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
    expect(existsSync(dirname(file!))).toBe(false);
  });

  it("--json prints one document (kind web) with the URL and the port", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    const web = startBin(dir, ["--json"]);
    const url = await web.url;
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
    expect(JSON.parse(web.output())).toEqual({
      schemaVersion: 1,
      kind: "web",
      data: { url, port: Number(new URL(url).port) },
    });
  });

  it("refuses a repository without Pantheon state, before listening", () => {
    const dir = makeRepo();
    const r = runBin(["web"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^✗ No Pantheon state/);
    expect(r.stderr).toContain("pantheon demo --keep, then pantheon -C <the folder it prints> web");
    expect(r.stdout).toBe("");
  });

  it("--help has examples", () => {
    const r = runBin(["web", "--help"], { cwd: tempDir() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("$ pantheon web --open");
    expect(r.stdout).toContain("--port <n>");
  });
});
