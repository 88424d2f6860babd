import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { jsonData, runCli, type CliResult } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { makeRepo, stateRef } from "../../helpers/repo.js";

/**
 * Shared set-up for the CLI integration tests: a fresh temp repository with `pantheon init --yes`
 * done, a cast of personas on missions, and assertions for the error contract of DESIGN §4.2.
 */

export const REF = "refs/coordination/main";

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  tty?: boolean;
}

export interface Project {
  dir: string;
  run(argv: string[], o?: RunOptions): Promise<CliResult>;
  /** Runs and requires exit 0 (the failure message shows stderr). */
  ok(argv: string[], o?: RunOptions): Promise<CliResult>;
  /** Runs with `--json`, requires exit 0 and the kind, returns `data`. */
  json<T = any>(argv: string[], kind: string, o?: RunOptions): Promise<T>;
}

export function project(dir: string): Project {
  const run = (argv: string[], o: RunOptions = {}) => runCli(argv, { cwd: dir, ...o });
  const ok = async (argv: string[], o: RunOptions = {}) => {
    const r = await run(argv, o);
    expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
    return r;
  };
  const json = async <T>(argv: string[], kind: string, o: RunOptions = {}) =>
    jsonData<T>(await ok([...argv, "--json"], o), kind);
  return { dir, run, ok, json };
}

/** A fresh repository with `pantheon init --yes` done. */
export async function initProject(): Promise<Project> {
  const p = project(makeRepo());
  await p.ok(["init", "--yes"]);
  return p;
}

/** The cast, in the order their missions start; Icarus and Cronus end theirs at once. */
export const CAST = [
  { persona: "Hephaestus", role: "engineer", ended: false },
  { persona: "Daedalus", role: "engineer", ended: false },
  { persona: "Athena", role: "architect", ended: false },
  { persona: "Zeus", role: "administrator", ended: false },
  { persona: "Icarus", role: "engineer", ended: true },
  { persona: "Cronus", role: "administrator", ended: true },
] as const;

export interface CastProject extends Project {
  /** Mission id of each persona of the cast that was started (`MSN-0001` for Hephaestus). */
  missions: Record<string, string>;
  /** Replaces every string `@Name` inside `v` with that persona's mission id. */
  sub<T>(v: T): T;
}

/** Personas of the cast named anywhere in `v` (Hephaestus always: taskIn claims as him). */
export function castNamedIn(...v: unknown[]): string[] {
  const text = JSON.stringify(v);
  return CAST.map((c) => c.persona).filter((name) => name === "Hephaestus" || text.includes(name));
}

/**
 * A project with missions for `personas` of the cast (all by default), started in CAST order,
 * so Hephaestus is always MSN-0001. A mutation costs 10-30 ms in-process, so table-driven
 * tests start only the missions a case names.
 */
export async function castProject(personas: Iterable<string> = CAST.map((c) => c.persona)): Promise<CastProject> {
  const p = await initProject();
  const wanted = new Set(personas);
  const missions: Record<string, string> = {};
  for (const c of CAST) {
    if (!wanted.has(c.persona)) continue;
    const m = await p.json<{ id: string }>(["mission", "start", "--role", c.role, "--persona", c.persona], "mission");
    missions[c.persona] = m.id;
  }
  for (const c of CAST) if (c.ended && missions[c.persona]) await p.ok(["mission", "end", missions[c.persona]!]);
  const sub = <T>(v: T): T => {
    if (typeof v === "string") return (v.startsWith("@") && missions[v.slice(1)] ? missions[v.slice(1)] : v) as T;
    if (Array.isArray(v)) return v.map(sub) as T;
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)])) as T;
    return v;
  };
  return { ...p, missions, sub };
}

export const HEPH = ["--as", "Hephaestus"];
export const DAEDALUS = ["--as", "Daedalus"];
export const ATHENA = ["--as", "Athena"];
export const ZEUS = ["--as", "Zeus"];

/** States taskIn() can bring a task to; BLOCKED is claimed by Hephaestus, BLOCKED_UNCLAIMED is not. */
export type SetupState =
  | "TODO"
  | "READY"
  | "UNDERWAY"
  | "REVIEW"
  | "BLOCKED"
  | "BLOCKED_UNCLAIMED"
  | "COMPLETE"
  | "ABORTED";

/**
 * Creates an engineer task of HIGH priority (ENG-H-0001 in a fresh project) and moves it to
 * `state` through real commands, Hephaestus claiming; returns its id.
 */
export async function taskIn(p: Project, state: SetupState): Promise<string> {
  const id = (
    await p.json<{ id: string }>(
      ["task", "create", "--title", "Implement login", "--role", "engineer", "--priority", "high"],
      "task",
    )
  ).id;
  const claim = () => p.ok([...HEPH, "task", "claim", id]);
  switch (state) {
    case "TODO":
      break;
    case "READY":
      await claim();
      await p.ok([...HEPH, "task", "handoff", id, "--notes", "over to you"]);
      break;
    case "UNDERWAY":
      await claim();
      break;
    case "REVIEW":
      await claim();
      await p.ok([...HEPH, "task", "update", id, "--status", "REVIEW"]);
      break;
    case "BLOCKED":
      await claim();
      await p.ok([...HEPH, "task", "update", id, "--status", "BLOCKED", "--notes", "waiting for keys"]);
      break;
    case "BLOCKED_UNCLAIMED":
      await p.ok(["task", "update", id, "--status", "BLOCKED", "--notes", "waiting for keys"]);
      break;
    case "COMPLETE":
      await claim();
      await p.ok([...HEPH, "task", "close", id]);
      break;
    case "ABORTED":
      await p.ok(["task", "close", id, "--status", "ABORTED", "--notes", "not needed"]);
      break;
  }
  return id;
}

/** `task show --json` data of a task (as the Director unless argv carries actor flags). */
export async function showTask(p: Project, id: string | number, actor: string[] = []): Promise<any> {
  return p.json([...actor, "task", "show", String(id)], "task");
}

export interface FailureCheck {
  exitCode: number;
  refBefore: string | null;
  dir: string;
  /** What the first line (`✗ ...`) must also match. */
  firstLine?: RegExp[];
  /** Names the case in assertion messages (table-driven tests check many cases per repository). */
  label?: string;
  /** Keep going after a failed assertion, so one test reports every failing case of its table. */
  soft?: boolean;
}

/** The refusal contract: exit code, `✗ ` first line, a hint line, empty stdout, ref untouched. */
export function expectFailure(r: CliResult, o: FailureCheck): void {
  const e = o.soft ? expect.soft : expect;
  const context = `${o.label ? `${o.label}\n` : ""}stderr was:\n${r.stderr}`;
  e(r.exitCode, context).toBe(o.exitCode);
  e(r.stdout, context).toBe("");
  const lines = r.stderr.split("\n");
  e(lines[0], context).toMatch(/^✗ /);
  e(lines[1] ?? "", `a hint line after the message; ${context}`).toMatch(/^ {2}hint: \S/);
  for (const re of o.firstLine ?? []) e(lines[0], context).toMatch(re);
  e(r.stderr, `no raw ESC in stderr; ${context}`).not.toContain("\u001b");
  e(stateRef(o.dir), `the ref must not move; ${context}`).toBe(o.refBefore);
}

/** Runs a command that must fail with `exitCode`, and checks the whole error contract. */
export async function expectRefused(
  p: Project,
  argv: string[],
  exitCode: number,
  firstLine: RegExp[] = [],
  o: RunOptions & Pick<FailureCheck, "label" | "soft"> & { refBefore?: string | null } = {},
): Promise<CliResult> {
  // A table that runs many refusals on one repository passes the ref it knows (one git spawn less).
  const before = o.refBefore !== undefined ? o.refBefore : stateRef(p.dir);
  const r = await p.run(argv, { ...(o.env && { env: o.env }), ...(o.tty !== undefined && { tty: o.tty }) });
  expectFailure(r, {
    exitCode,
    refBefore: before,
    dir: p.dir,
    firstLine,
    label: o.label ?? `pantheon ${argv.join(" ")}`,
    ...(o.soft && { soft: true }),
  });
  return r;
}

/** Escapes a literal for use in a RegExp. */
export function lit(s: string): RegExp {
  return new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

/** Real git with extra environment and optional stdin (for plumbing with a temporary index). */
export function gitWith(cwd: string, args: string[], o: { env?: NodeJS.ProcessEnv; input?: string } = {}): string {
  return execFileSync("git", args, {
    cwd,
    env: testEnv(o.env),
    encoding: "utf8",
    input: o.input ?? "",
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/**
 * Writes `files` (path → content) onto the state ref as one new commit, with real git plumbing
 * only: hash-object, read-tree/update-index into a temporary index, write-tree, commit-tree,
 * update-ref. Returns the new commit id.
 */
export function writeOntoRef(dir: string, files: Record<string, string>, message = "test: tamper with state"): string {
  const env = { GIT_INDEX_FILE: join(dir, ".git", "pantheon-test-index") };
  const parent = gitWith(dir, ["rev-parse", REF]).trim();
  gitWith(dir, ["read-tree", REF], { env });
  for (const [path, content] of Object.entries(files)) {
    const blob = gitWith(dir, ["hash-object", "-w", "--stdin"], { input: content }).trim();
    gitWith(dir, ["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], { env });
  }
  const tree = gitWith(dir, ["write-tree"], { env }).trim();
  const commit = gitWith(dir, ["commit-tree", tree, "-p", parent, "-m", message]).trim();
  gitWith(dir, ["update-ref", REF, commit, parent]);
  return commit;
}

/** The blob id of a path on the state ref, as git sees it. */
export function blobId(dir: string, path: string): string {
  return gitWith(dir, ["rev-parse", `${REF}:${path}`]).trim();
}
