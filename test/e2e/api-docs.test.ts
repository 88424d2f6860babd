/**
 * docs/api.md is what a program is written from (issue 18's acceptance): every ```ts block of it
 * is type-checked against the declarations the package publishes, importing "pantheon/api" as a
 * user's project does (the package linked into its node_modules, resolved through package.json
 * "exports"), and the first example then runs against a real repository.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeRepo, stateRef } from "../helpers/repo.js";

const ROOT = resolve(__dirname, "../..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

function examples(): string[] {
  return [...readFileSync(join(ROOT, "docs/api.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A user's project: "pantheon" linked into node_modules, strict TypeScript, ESM. */
function userProject(files: Record<string, string>): string {
  // Shared by the tests of this file (one compile), so removed after all of them.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-api-user-")));
  made.push(dir);
  mkdirSync(join(dir, "node_modules/@types"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules/pantheon"), "dir");
  symlinkSync(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "api-user", private: true, type: "module" }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        types: ["node"],
        outDir: "out",
        rootDir: "src",
        skipLibCheck: false,
      },
      include: ["src"],
    }),
  );
  mkdirSync(join(dir, "src"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "src", name), text);
  return dir;
}

function tsc(dir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const WRONG = [
  'import { openPantheon } from "pantheon/api";',
  "const p = await openPantheon();",
  'await p.tasks.create({ title: "x", role: "wizard" });',
  'await p.tasks.update("ENG-H-0001", { status: "DONE" });',
  "export {};",
].join("\n");

describe("docs/api.md", () => {
  // One compile for all (tsc takes seconds): the examples and a file that must not type-check.
  let compiled: { dir: string; status: number | null; out: string; count: number } | undefined;
  const compile = () => {
    if (compiled) return compiled;
    const blocks = examples();
    const dir = userProject({
      ...Object.fromEntries(blocks.map((b, i) => [`example-${i + 1}.ts`, b])),
      "wrong.ts": WRONG,
    });
    compiled = { dir, ...tsc(dir), count: blocks.length };
    return compiled;
  };

  it("has examples, and every one type-checks against the published declarations", () => {
    const r = compile();
    expect(r.count).toBeGreaterThanOrEqual(4);
    expect(r.out.split("\n").filter((l) => /error TS/.test(l) && !/wrong\.ts/.test(l))).toEqual([]);
  });

  it("types refuse what the API refuses: a role or a status that does not exist", () => {
    const r = compile();
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/wrong\.ts\(3,[^\n]*"wizard"/);
    expect(r.out).toMatch(/wrong\.ts\(4,[^\n]*"DONE"/);
  });

  it("runs its first example: a mission, a task claimed, in REVIEW, closed, the mission ended", () => {
    const { dir } = compile();
    const repo = makeRepo();
    expect(runBin(["init", "--yes"], { cwd: repo }).exitCode).toBe(0);
    const before = stateRef(repo);
    const out = execFileSync(process.execPath, [join(dir, "out/example-1.js")], {
      cwd: repo,
      env: testEnv(),
      encoding: "utf8",
    });
    expect(out).toBe("REVIEW\nMSN-0001 ENDED\n");
    expect(stateRef(repo)).not.toBe(before);
    const task = JSON.parse(runBin(["task", "show", "1", "--json"], { cwd: repo }).stdout).data;
    expect(task).toMatchObject({ id: "ENG-H-0001", status: "COMPLETE", completedBy: "Hephaestus" });
  });

  it("is published: package.json exports pantheon/api with its declarations, and npm pack includes them", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.exports["./api"]).toEqual({ types: "./dist/types/api/index.d.ts", default: "./dist/api.cjs" });
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    const files = new Set((packed[0].files as Array<{ path: string }>).map((f) => f.path));
    for (const f of [
      "dist/api.cjs",
      "dist/types/api/index.d.ts",
      "dist/types/errors.d.ts",
      "dist/types/render/task-view.d.ts",
    ])
      expect(files, f).toContain(f);
  });
});
