/**
 * `pantheon mcp` driven by the official SDK's own client over stdio, spawning the built bundle as
 * an assistant does (issue 18): the tool list, its size, a whole claim → REVIEW → approve cycle
 * across two sessions, actors per call, per session and from PANTHEON_MISSION, and refusals.
 */
import { spawn, spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeRepo, stateRef } from "../helpers/repo.js";

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(cwd: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args, "mcp"],
    cwd,
    env: testEnv(env) as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "pantheon-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };

async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = (await c.callTool({ name, arguments: args })) as Result;
  if (r.isError) throw new Error(r.content[0]!.text);
  return JSON.parse(r.content[0]!.text);
}

function initialised(): string {
  const dir = makeRepo();
  expect(runBin(["init", "--yes"], { cwd: dir }).exitCode).toBe(0);
  return dir;
}

describe("pantheon mcp", () => {
  it("lists a small set of tools, each with a one-line description and an input schema, under 2,000 tokens", async () => {
    const c = await connect(initialised());
    const list = await c.listTools();
    expect(list.tools.map((t) => t.name).sort()).toEqual([
      "activity",
      "blocked",
      "claim",
      "close",
      "create",
      "criterion",
      "epic",
      "handoff",
      "label",
      "mission_end",
      "mission_start",
      "next",
      "note",
      "prereqs",
      "report",
      "review",
      "search",
      "show",
      "unassign",
      "update",
    ]);
    for (const t of list.tools) {
      expect(t.description, t.name).toMatch(/^[^\n]{10,90}$/);
      expect(t.inputSchema.type, t.name).toBe("object");
    }
    // Token count approximated as characters / 4 of the tools/list result as JSON (the usual
    // rule of thumb for English and JSON with OpenAI's and Anthropic's tokenizers).
    const tokens = Math.ceil(JSON.stringify(list).length / 4);
    expect(tokens).toBeLessThan(2000);
    expect(tokens).toBeGreaterThan(500); // measured ~1,515 (20 tools, without the SDK's repeated $schema and execution): the list is really there
  });

  it("drives a full cycle: a mission started, a task created and claimed, in REVIEW, approved by a tester's session", async () => {
    const dir = initialised();
    const engineer = await connect(dir);
    const m = await call(engineer, "mission_start", { role: "eng", persona: "Hephaestus", objective: "login" });
    expect(m).toMatchObject({ id: "MSN-0001", status: "ACTIVE", role: "engineer" });
    const t = await call(engineer, "create", { title: "Add login", role: "engineer", priority: "high" });
    expect(t.id).toBe("ENG-H-0001");
    expect((await call(engineer, "next"))[0]).toMatchObject({
      id: "ENG-H-0001",
      reason: expect.stringContaining("HIGH priority"),
    });
    // No mission argument: the session's own mission (mission_start) acts.
    expect(await call(engineer, "claim", { id: "1" })).toMatchObject({
      status: "UNDERWAY",
      claimedBy: "Hephaestus",
      mission: "MSN-0001",
    });
    expect((await call(engineer, "show", { id: "ENG-H-0001" })).allowedActions).toContain("update --status REVIEW");
    await call(engineer, "note", { id: "1", text: "token refresh needs a lock" });
    expect(await call(engineer, "update", { id: "1", status: "review", notes: "ready" })).toMatchObject({
      status: "REVIEW",
    });

    // The tester's assistant was started with PANTHEON_MISSION (as summon does).
    const tester = JSON.parse(
      runBin(["mission", "start", "--role", "tester", "--persona", "Artemis", "--json"], { cwd: dir }).stdout,
    ).data;
    const reviewer = await connect(dir, { PANTHEON_MISSION: tester.handle });
    const approved = await call(reviewer, "review", {
      id: "RVW-001",
      decision: "approve",
      notes: "tests cover expiry",
    });
    expect(approved).toMatchObject({ id: "RVW-001", status: "APPROVED", reviewer: "Artemis", task: "ENG-H-0001" });
    const task = JSON.parse(runBin(["task", "show", "1", "--json"], { cwd: dir }).stdout).data;
    expect(task).toMatchObject({ status: "COMPLETE", completedBy: "Hephaestus" });
    expect(task.notes.map((n: { by: string; text: string }) => `${n.by}: ${n.text}`)).toEqual(
      expect.arrayContaining(["Hephaestus: token refresh needs a lock"]),
    );

    expect(await call(engineer, "report")).toMatchObject({ total: 1, completionRate: 1 });
    expect(await call(engineer, "mission_end", { summary: "login done" })).toMatchObject({
      id: "MSN-0001",
      status: "ENDED",
    });
  });

  it("takes the actor per call, and from --mission for the whole session", async () => {
    const dir = initialised();
    const a = JSON.parse(
      runBin(["mission", "start", "--role", "engineer", "--persona", "Hephaestus", "--json"], { cwd: dir }).stdout,
    ).data;
    const b = JSON.parse(
      runBin(["mission", "start", "--role", "engineer", "--persona", "Vulcan", "--json"], { cwd: dir }).stdout,
    ).data;
    runBin(["task", "create", "--title", "one", "--role", "engineer"], { cwd: dir });
    runBin(["task", "create", "--title", "two", "--role", "engineer"], { cwd: dir });
    const c = await connect(dir, {}, ["--mission", a.handle]);
    expect((await call(c, "claim", { id: "1" })).claimedBy).toBe("Hephaestus");
    expect((await call(c, "claim", { id: "2", mission: b.id })).claimedBy).toBe("Vulcan");
  });

  it("labels and acceptance criteria: created with the task, labelled, checked, and a close with one open refused until forced", async () => {
    const dir = initialised();
    const c = await connect(dir);
    await call(c, "mission_start", { role: "eng", persona: "Hephaestus" });
    const t = await call(c, "create", {
      title: "Task API",
      role: "engineer",
      labels: ["API"],
      acceptance: ["returns 404 for unknown ids"],
    });
    expect(t).toMatchObject({ labels: ["api"], acceptance: [{ text: "returns 404 for unknown ids", done: false }] });
    expect((await call(c, "label", { id: "1", labels: ["auth", "db"] })).labels).toEqual(["api", "auth", "db"]);
    expect((await call(c, "label", { id: "1", labels: ["db"], remove: true })).labels).toEqual(["api", "auth"]);
    expect((await call(c, "criterion", { id: "1", text: "documented" })).acceptance).toHaveLength(2);
    expect((await call(c, "criterion", { id: "1", n: 1 })).acceptance[0].done).toBe(true);
    expect((await call(c, "next", { label: "auth" })).map((x: any) => x.id)).toEqual(["ENG-M-0001"]);
    expect(await call(c, "next", { label: "db" })).toEqual([]);
    await call(c, "claim", { id: "1" });
    const before = stateRef(dir);
    const refused = (await c.callTool({ name: "close", arguments: { id: "1" } })) as Result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(
      /^E_OPEN_CRITERIA: ENG-M-0001 has 1 unchecked acceptance criterion: 2\. "documented"\nhint: check it/,
    );
    expect(stateRef(dir)).toBe(before);
    expect(await call(c, "close", { id: "1", force: true })).toMatchObject({ status: "COMPLETE" });
  });

  it("answers a refusal with isError, the code and the hint, and leaves the ref untouched", async () => {
    const dir = initialised();
    const c = await connect(dir);
    await call(c, "create", { title: "Add login", role: "engineer" });
    const before = stateRef(dir);
    const claim = (await c.callTool({ name: "claim", arguments: { id: "1" } })) as Result;
    expect(claim.isError).toBe(true);
    expect(claim.content[0]!.text).toMatch(/^E_INVALID_TRANSITION: .*\nhint: /);
    const bad = (await c.callTool({ name: "create", arguments: { title: "x", role: "wizard" } })) as Result;
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^E_USAGE: Unknown role "wizard"/) }],
    });
    const missing = (await c.callTool({ name: "show", arguments: {} })) as Result;
    expect(missing.isError).toBe(true);
    expect(stateRef(dir)).toBe(before);
  });

  it("answers the questions the CLI answers: blocked, prerequisites of an epic, its progress, activity; a hint names a tool", async () => {
    const dir = initialised();
    for (const argv of [
      ["epic", "create", "--title", "Release"],
      ["task", "create", "--title", "Design", "--role", "architect"],
      ["task", "create", "--title", "Build", "--role", "engineer", "--depends-on", "1", "--epic", "1"],
      ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"],
    ])
      expect(runBin(argv, { cwd: dir }).exitCode).toBe(0);
    const c = await connect(dir, { PANTHEON_MISSION: "MSN-0001" });
    expect((await call(c, "blocked")).map((t: any) => [t.id, t.blockedBy])).toEqual([["ENG-M-0002", ["ARC-M-0001"]]]);
    expect((await call(c, "prereqs", { id: "EPC-M-0001" })).map((t: any) => t.id)).toEqual([
      "ARC-M-0001",
      "ENG-M-0002",
    ]);
    expect(await call(c, "epic", { id: "EPC-M-0001" })).toMatchObject({ progress: { complete: 0, total: 1 } });
    expect(await call(c, "activity")).toEqual([expect.objectContaining({ persona: "Hephaestus", missions: 1 })]);
    // The claim guard's hint, in this server's terms.
    const claim = (await c.callTool({ name: "claim", arguments: { id: "2" } })) as Result;
    expect(claim.content[0]!.text).toMatch(/\nhint: prereqs\(\{"id":"ENG-M-0002"\}\) \(or force: true\)$/);
  });

  it("answers a message over 10 MiB with a JSON-RPC error naming its id, says so on stderr, and keeps serving", async () => {
    const dir = initialised();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      cwd: dir,
      env: testEnv() as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr!.on("data", (d) => (stderr += d));
    const c = new Client({ name: "pantheon-test", version: "1.0.0" });
    await c.connect(transport);
    open.push(c);
    await call(c, "create", { title: "Add login", role: "engineer" });
    const huge = "x".repeat(11 * 1024 * 1024);
    await expect(c.callTool({ name: "note", arguments: { id: "1", text: huge } })).rejects.toThrow(
      /-32600.*Message of 11\.0 MiB refused: pantheon mcp reads at most 10 MiB per message; send shorter arguments/,
    );
    expect(stderr).toMatch(/Message of 11\.0 MiB refused.*still serving/);
    // Still serving, on the same connection.
    expect(await call(c, "report")).toMatchObject({ total: 1 });
    // A message just under the limit is read (and refused by the CLI's own rule on note length).
    const big = (await c.callTool({
      name: "note",
      arguments: { id: "1", text: "y".repeat(9 * 1024 * 1024) },
    })) as Result;
    expect(big.content[0]!.text).toMatch(/^E_USAGE: note is 9437184 characters; the limit is 20000/);
  });

  it("answers a line that is not JSON with a parse error, and ends with exit 0 when stdin closes", async () => {
    const dir = initialised();
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: dir, env: testEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    child.stdin.end(`not json\n{"jsonrpc":"2.0","id":"x"}\n${JSON.stringify(init)}\n`);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
    });
    expect(lines[1]).toMatchObject({ jsonrpc: "2.0", id: "x", error: { code: -32600 } });
    expect(lines[2]).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "pantheon" } } });
    expect(stderr).toMatch(/Parse error.*still serving/);
    expect(code).toBe(0);
  });

  it("is loaded only by `pantheon mcp`: no other command loads the SDK", () => {
    const dir = initialised();
    const loaded = (argv: string[], input = "") => {
      // Counts the SDK's modules in require's cache when the process exits.
      const probe = `process.on("exit", () => process.stderr.write("SDK:" + Object.keys(require.cache).filter((k) => k.includes("@modelcontextprotocol")).length));process.argv = [process.argv[0], ${JSON.stringify(BIN)}, ...${JSON.stringify(argv)}];require(${JSON.stringify(BIN)});`;
      const r = spawnSync(process.execPath, ["-e", probe], { cwd: dir, env: testEnv(), input, encoding: "utf8" });
      return Number(/SDK:(\d+)/.exec(r.stderr)?.[1] ?? -1);
    };
    for (const argv of [
      ["--version"],
      ["task", "list"],
      ["dashboard"],
      ["task", "create", "--title", "x", "--role", "eng"],
      ["--help"],
    ])
      expect(loaded(argv), argv.join(" ")).toBe(0);
    expect(loaded(["mcp"])).toBeGreaterThan(0);
  });
});
