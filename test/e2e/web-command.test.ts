import { spawn } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on("close", () => reject(new Error(`exited: ${out}${err}`)));
  });
  return { child, url, closed, output: () => out, errors: () => err };
}

describe("pantheon web (the bundle, as a user runs it)", () => {
  it("prints its URL with a 64-hex-digit token, serves the page and the API, and stops on SIGTERM with exit 0", async () => {
    const dir = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
    expect(runBin(["task", "create", "--title", "Add login", "--role", "engineer"], { cwd: dir }).exitCode).toBe(0);
    const web = startBin(dir, ["--port", "0"]);
    const url = new URL(await web.url);
    expect(web.output()).toMatch(/^✓ Pantheon dashboard on http:\/\/127\.0\.0\.1:/);
    const port = Number(url.port);
    const page = await webGet(port, `/?token=${url.searchParams.get("token")}`);
    expect(page.status).toBe(303);
    const tasks = await webGet(port, `/api/tasks?token=${url.searchParams.get("token")}`);
    expect(JSON.parse(tasks.body).data.map((t: { id: string }) => t.id)).toEqual(["ENG-M-0001"]);
    expect((await webGet(port, "/api/tasks")).status).toBe(401);
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
  });

  it("--open hands the URL to the system's opener as one argument (no shell)", async () => {
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
    const url = await web.url;
    // The opener runs detached; its file appears once it has run (the test's timeout bounds the wait).
    let argv: string[] | null = null;
    while (argv === null) {
      try {
        argv = JSON.parse(readFileSync(log, "utf8")) as string[];
      } catch {
        await new Promise((r) => setImmediate(r));
      }
    }
    expect(argv).toEqual([url]);
    web.child.kill("SIGTERM");
    expect(await web.closed).toBe(0);
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
