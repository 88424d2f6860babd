/**
 * Who acts through `pantheon mcp` (DESIGN §1.7). A model drives it, and its client filters the
 * environment (the SDK's own stdio transport passes only HOME, LOGNAME, PATH, SHELL, TERM and
 * USER), so no assistant marker tells it a model is there: it must never fall back to the
 * Director. The client here is the SDK's own, with its DEFAULT environment (no `env` given), as
 * an assistant's is; `pantheon mcp --director` is the Director's explicit choice.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, jsonData, runBin, runCli } from "../helpers/cli.js";
import { git, makeRepo, stateRef } from "../helpers/repo.js";

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** The SDK's client spawning the built bundle with the environment it chooses itself. */
async function connect(cwd: string, args: string[] = []): Promise<Client> {
  // No `env`: the SDK passes its default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "pantheon-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await c.callTool({ name, arguments: args })) as Result;
}

/**
 * A project made by the CLI at a terminal (the Director): Hephaestus (MSN-0001) holds ENG-H-0001
 * to ENG-H-0004 UNDERWAY, and has ENG-H-0005 and ENG-H-0006 in REVIEW (RVW-001, RVW-002 pending).
 */
async function project(): Promise<string> {
  const dir = makeRepo();
  const ok = async (argv: string[]) => expect((await runCli(argv, { cwd: dir })).exitCode, argv.join(" ")).toBe(0);
  await ok(["init", "--yes"]);
  await ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  for (let n = 1; n <= 6; n++) {
    await ok(["task", "create", "--title", `Task ${n}`, "--role", "engineer", "--priority", "high"]);
    await ok(["--mission", "MSN-0001", "task", "claim", `${n}`]);
  }
  await ok(["--mission", "MSN-0001", "task", "update", "5", "--status", "REVIEW"]);
  await ok(["--mission", "MSN-0001", "task", "update", "6", "--status", "REVIEW"]);
  return dir;
}

/** Each tool call that takes an owner's rights, and the CLI command it is (in an order that works). */
const OWNER_ACTS: Array<{ tool: string; args: Record<string, unknown>; argv: string[] }> = [
  { tool: "close", args: { id: "1" }, argv: ["task", "close", "1"] },
  { tool: "unassign", args: { id: "2", notes: "mine now" }, argv: ["task", "unassign", "2", "--notes", "mine now"] },
  { tool: "handoff", args: { id: "3", notes: "over" }, argv: ["task", "handoff", "3", "--notes", "over"] },
  { tool: "update", args: { id: "4", status: "BLOCKED" }, argv: ["task", "update", "4", "--status", "BLOCKED"] },
  { tool: "review", args: { id: "RVW-001", decision: "approve" }, argv: ["review", "approve", "RVW-001"] },
  {
    tool: "review",
    args: { id: "RVW-002", decision: "reject", notes: "no" },
    argv: ["review", "reject", "RVW-002", "--reason", "no"],
  },
  {
    tool: "mission_end",
    args: { id: "MSN-0001", release: true },
    argv: ["mission", "end", "MSN-0001", "--release"],
  },
];

/** Who the state's last commit says acted (its Pantheon-Actor trailer). */
const lastActor = (dir: string) =>
  git(dir, "log", "-1", "--format=%(trailers:key=Pantheon-Actor,valueonly)", "refs/coordination/main").trim();

describe("pantheon mcp never acts as the Director unless told --director", () => {
  it("with no mission, every owner act is refused with the CLI's message and a hint in tool terms; the ref is untouched", async () => {
    const dir = await project();
    const c = await connect(dir);
    const before = stateRef(dir);
    for (const act of OWNER_ACTS) {
      const r = await call(c, act.tool, act.args);
      const label = `${act.tool} ${JSON.stringify(act.args)}`;
      expect(r.isError, `${label}: ${r.content[0]?.text}`).toBe(true);
      // The CLI, run by an assistant with no mission (a marker set), refuses with the same message.
      const refused = await runCli(act.argv, { cwd: dir, env: { CLAUDECODE: "1" } });
      expect(refused.exitCode, label).toBe(1);
      const message = /^✗ (.*)$/m.exec(refused.stderr)![1]!;
      expect(message, label).toContain("(unidentified persona)");
      expect(r.content[0]!.text, label).toContain(`: ${message}\n`);
      // What to do, in this server's terms: the CLI's hint names --mission and /summon.
      expect(r.content[0]!.text, label).toMatch(/\nhint: .*call mission_start/);
    }
    const end = await call(c, "mission_end", {});
    expect(end.content[0]!.text).toMatch(/^E_USAGE: Which mission\?.*\nhint: say who you are: call mission_start/);
    expect(stateRef(dir)).toBe(before);
    // Reading and creating are an unidentified persona's rights.
    expect((await call(c, "show", { id: "1" })).isError).toBeFalsy();
    const created = await call(c, "create", { title: "Found a bug", role: "tester" });
    expect(created.isError).toBeFalsy();
    expect(JSON.parse(created.content[0]!.text)).toMatchObject({ id: "TST-M-0007" });
    expect(lastActor(dir)).toBe("(unidentified persona)");
  });

  it("a session's own mission is a persona's: it may not close another persona's claim, and approves as itself", async () => {
    const dir = await project();
    const c = await connect(dir);
    expect((await call(c, "mission_start", { role: "tester", persona: "Artemis" })).isError).toBeFalsy();
    const close = await call(c, "close", { id: "1" });
    expect(close.isError).toBe(true);
    expect(close.content[0]!.text).toContain("Cannot close ENG-H-0001 as Artemis");
    const approved = await call(c, "review", { id: "RVW-001", decision: "approve" });
    expect(JSON.parse(approved.content[0]!.text)).toMatchObject({ status: "APPROVED", reviewer: "Artemis" });
    // Ending the session's mission leaves an unidentified persona, not the Director.
    expect((await call(c, "mission_end", {})).isError).toBeFalsy();
    const after = await call(c, "close", { id: "1" });
    expect(after.isError).toBe(true);
    expect(after.content[0]!.text).toContain("as (unidentified persona)");
  });

  it("`pantheon mcp --director` is the Director: every owner act works, recorded as the Director's", async () => {
    const dir = await project();
    const c = await connect(dir, ["--director"]);
    for (const act of OWNER_ACTS) {
      const r = await call(c, act.tool, act.args);
      const label = `${act.tool} ${JSON.stringify(act.args)}`;
      expect(r.isError, `${label}: ${r.content[0]?.text}`).toBeFalsy();
      expect(lastActor(dir), label).toBe("Director");
      if (act.tool === "review") expect(JSON.parse(r.content[0]!.text)).toMatchObject({ reviewer: "Director" });
    }
    const task = (n: number) => jsonData(runBin(["task", "show", `${n}`, "--json"], { cwd: dir }));
    // Closed, unassigned, handed off, approved; 4 (BLOCKED) and 6 (rejected: UNDERWAY) released by the mission's end.
    expect([1, 2, 3, 4, 5, 6].map((n) => task(n).status)).toEqual([
      "COMPLETE",
      "TODO",
      "READY",
      "TODO",
      "COMPLETE",
      "TODO",
    ]);
  });

  it("`--director` with --mission or --as is a usage error (exit 2): say one", () => {
    const dir = makeRepo();
    for (const argv of [
      ["--mission", "MSN-0001", "mcp", "--director"],
      ["--as", "Hephaestus", "mcp", "--director"],
    ]) {
      const r = runBin(argv, { cwd: dir });
      expect(r.exitCode, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(
        /^✗ --director acts as the Director, while --mission and --as name a persona: give one of them$/m,
      );
    }
  });
});
