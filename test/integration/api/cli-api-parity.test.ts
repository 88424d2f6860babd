/**
 * The CLI and pantheon/api cannot drift (issue 18): every command of DESIGN §4.1 that the API
 * covers runs through `pantheon ... --json` in one repository and through the API in an exact
 * copy of it, step by step, with the same clock-independent ids; each step's `data` (or error
 * code and exit code) must be equal. A coverage check then requires every leaf command of the
 * commander tree and every one of its options to appear in these steps, so a command or option
 * added later fails here until the API has it too.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPantheon, type Pantheon } from "../../../src/api/open-pantheon.js";
import { PantheonError } from "../../../src/errors.js";
import { App } from "../../../src/cli/app.js";
import { buildProgram } from "../../../src/cli/program.js";
import { openStore } from "../../../src/cli/open-store.js";
import { testEnv } from "../../helpers/env.js";
import { runCli } from "../../helpers/cli.js";
import { git, tempDir } from "../../helpers/repo.js";

type Step = [argv: string[], api: (p: Pantheon) => Promise<unknown>];

const M1 = { mission: "MSN-0001" };
const M2 = { mission: "MSN-0002" };

/** One session of every command, in an order where each has something to act on. */
const STEPS: Step[] = [
  [
    ["mission", "start", "--role", "engineer", "--persona", "Hephaestus", "--objective", "login"],
    (p) => p.missions.start({ role: "engineer", persona: "Hephaestus", objective: "login" }),
  ],
  [
    ["mission", "start", "--role", "TST", "--persona", "Artemis"],
    (p) => p.missions.start({ role: "TST", persona: "Artemis" }),
  ],
  [["mission", "start", "--role", "administrator"], (p) => p.missions.start({ role: "administrator" })],
  [["mission", "start", "--role", "boss"], (p) => p.missions.start({ role: "boss" as "engineer" })],
  [
    ["epic", "create", "--title", "Login", "--priority", "high", "--description", "Sign in"],
    (p) => p.epics.create({ title: "Login", priority: "high", description: "Sign in" }),
  ],
  [
    ["task", "create", "--title", "Design login", "--role", "architect", "--priority", "HIGH"],
    (p) => p.tasks.create({ title: "Design login", role: "architect", priority: "HIGH" }),
  ],
  [
    [
      "task",
      "create",
      "--title",
      "Implement login",
      "--role",
      "eng",
      "--priority",
      "h",
      "--depends-on",
      "1",
      "--description",
      "tokens",
      "--epic",
      "EPC-H-0001",
    ],
    (p) =>
      p.tasks.create({
        title: "Implement login",
        role: "eng",
        priority: "h",
        dependsOn: ["1"],
        description: "tokens",
        epic: "EPC-H-0001",
      }),
  ],
  [
    ["task", "create", "--title", "Test login", "--role", "tester", "--depends-on", "ENG-H-0002"],
    (p) => p.tasks.create({ title: "Test login", role: "tester", dependsOn: "ENG-H-0002" }),
  ],
  [["task", "create", "--title", "", "--role", "tester"], (p) => p.tasks.create({ title: "", role: "tester" })],
  [
    ["task", "create", "--title", "Boss work", "--role", "administrator"],
    (p) => p.tasks.create({ title: "Boss work", role: "administrator" as "engineer" }),
  ],
  [["task", "import", "plan.yaml"], (p) => p.tasks.import("plan.yaml")],
  [["task", "show", "2", "--mission", "MSN-0001"], (p) => p.tasks.show("2", M1)],
  [["task", "show", "ENG-M-0002"], (p) => p.tasks.show("ENG-M-0002")],
  [["task", "show", "TST-H-0099"], (p) => p.tasks.show("TST-H-0099")],
  [["task", "list"], (p) => p.tasks.list()],
  [
    ["task", "list", "--status", "todo,ready", "--role", "eng", "--role", "tester", "--priority", "high"],
    (p) => p.tasks.list({ status: ["todo", "ready"], role: ["eng", "tester"], priority: "high" }),
  ],
  [["task", "list", "--epic", "EPC-H-0001", "--blocked"], (p) => p.tasks.list({ epic: "EPC-H-0001", blocked: true })],
  [["task", "list", "--claimed-by", "Hephaestus"], (p) => p.tasks.list({ claimedBy: "Hephaestus" })],
  [
    ["task", "list", "--ready", "--limit", "2", "--offset", "1"],
    (p) => p.tasks.list({ ready: true, limit: 2, offset: 1 }),
  ],
  [["task", "list", "--limit", "0"], (p) => p.tasks.list({ limit: 0 })],
  [["task", "list", "--status", "done"], (p) => p.tasks.list({ status: "done" as "TODO" })],
  [["task", "search", "login", "--limit", "5"], (p) => p.tasks.search("login", { limit: 5 })],
  [["task", "next", "--role", "engineer", "--count", "2"], (p) => p.tasks.next({ role: "engineer", count: 2 })],
  [["task", "next", "--role", "Architect", "--count", "1"], (p) => p.tasks.next({ role: "Architect", count: 1 })],
  [["task", "next", "--mission", "MSN-0002"], (p) => p.tasks.next(M2)],
  [["task", "report"], (p) => p.tasks.report()],
  [["task", "blocked"], (p) => p.tasks.blocked()],
  [["task", "prereqs", "TST-M-0003"], (p) => p.tasks.prereqs("TST-M-0003")],
  [["task", "prereqs", "EPC-H-0001"], (p) => p.tasks.prereqs("EPC-H-0001")],
  [["task", "claim", "2", "--mission", "MSN-0001"], (p) => p.tasks.claim("2", M1)],
  [["task", "claim", "2", "--force", "--mission", "MSN-0001"], (p) => p.tasks.claim("2", { ...M1, force: true })],
  [["--offline", "task", "show", "2"], (p) => p.tasks.show("2", { offline: true })],
  [["task", "mine", "--as", "Hephaestus"], (p) => p.tasks.mine({ as: "Hephaestus" })],
  [
    ["task", "note", "2", "token refresh needs a lock", "--mission", "MSN-0001"],
    (p) => p.tasks.note("2", "token refresh needs a lock", M1),
  ],
  [["task", "show", "2", "--mission", "MSN-0002"], (p) => p.tasks.show("2", M2)],
  [
    ["task", "update", "2", "--status", "review", "--notes", "ready for review", "--mission", "MSN-0001"],
    (p) => p.tasks.update("2", { status: "review", notes: "ready for review", ...M1 }),
  ],
  [["review", "list", "--status", "pending"], (p) => p.reviews.list({ status: "pending" })],
  [["review", "show", "RVW-001"], (p) => p.reviews.show("RVW-001")],
  [
    ["review", "approve", "RVW-001", "--notes", "tests pass", "--mission", "MSN-0002"],
    (p) => p.reviews.approve("RVW-001", { notes: "tests pass", ...M2 }),
  ],
  [["task", "close", "2", "--mission", "MSN-0001"], (p) => p.tasks.close("2", M1)],
  [["task", "reopen", "2", "--notes", "regression"], (p) => p.tasks.reopen("2", { notes: "regression" })],
  [["task", "claim", "2", "--force", "--mission", "MSN-0001"], (p) => p.tasks.claim("2", { force: true, ...M1 })],
  [
    ["task", "update", "2", "--status", "REVIEW", "--no-review", "--mission", "MSN-0001"],
    (p) => p.tasks.update("2", { status: "REVIEW", review: false, ...M1 }),
  ],
  [
    ["task", "update", "2", "--status", "complete", "--mission", "MSN-0001"],
    (p) => p.tasks.update("2", { status: "complete" as "TODO", ...M1 }),
  ],
  [
    [
      "review",
      "create",
      "--title",
      "Token store design",
      "--type",
      "design",
      "--task",
      "1",
      "--artifact",
      "docs/adr/1.md",
    ],
    (p) => p.reviews.create({ title: "Token store design", type: "design", task: "1", artifact: "docs/adr/1.md" }),
  ],
  [
    ["review", "create", "--title", "Anything", "--type", "opinion"],
    (p) => p.reviews.create({ title: "Anything", type: "opinion" as "design" }),
  ],
  // --notes (as every task command) and --reason (its older name) are one: both is a usage error, none too.
  [
    ["review", "reject", "RVW-002", "--notes", "no threat model", "--reason", "no threat model"],
    (p) => p.reviews.reject("RVW-002", { notes: "no threat model", reason: "no threat model" } as never),
  ],
  [["review", "reject", "RVW-002"], (p) => p.reviews.reject("RVW-002", {} as never)],
  [["review", "reject", "RVW-002", "--notes", " "], (p) => p.reviews.reject("RVW-002", { notes: " " })],
  [
    ["review", "reject", "RVW-002", "--notes", "no threat model"],
    (p) => p.reviews.reject("RVW-002", { notes: "no threat model" }),
  ],
  [
    ["review", "reject", "RVW-002", "--reason", "no threat model", "--force"],
    (p) => p.reviews.reject("RVW-002", { reason: "no threat model", force: true }),
  ],
  [["review", "approve", "RVW-002", "--force"], (p) => p.reviews.approve("RVW-002", { force: true })],
  [
    ["review", "create", "--title", "Threat model", "--task", "ARC-H-0001", "--mission", "MSN-0002"],
    (p) => p.reviews.create({ title: "Threat model", task: "ARC-H-0001", ...M2 }),
  ],
  [
    ["review", "approve", "RVW-003", "--force", "--mission", "MSN-0002"],
    (p) => p.reviews.approve("RVW-003", { force: true, ...M2 }),
  ],
  [
    ["task", "handoff", "2", "--notes", "start with the token store", "--mission", "MSN-0001"],
    (p) => p.tasks.handoff("2", { notes: "start with the token store", ...M1 }),
  ],
  [["task", "claim", "2", "--mission", "MSN-0001"], (p) => p.tasks.claim("2", M1)],
  [["task", "unassign", "2", "--notes", "freeing it"], (p) => p.tasks.unassign("2", { notes: "freeing it" })],
  [
    ["task", "close", "3", "--status", "aborted", "--notes", "duplicate"],
    (p) => p.tasks.close("3", { status: "aborted", notes: "duplicate" }),
  ],
  [["task", "close", "4", "--status", "aborted"], (p) => p.tasks.close("4", { status: "aborted" })],
  [["task", "close", "4", "--status", "review"], (p) => p.tasks.close("4", { status: "review" as "COMPLETE" })],
  [["task", "depend", "5", "4", "ARC-H-0001"], (p) => p.tasks.depend("5", ["4", "ARC-H-0001"])],
  [["task", "depend", "4", "5"], (p) => p.tasks.depend("4", "5")],
  [["task", "undepend", "5", "4"], (p) => p.tasks.undepend("5", "4")],
  [["task", "link", "4", "EPC-H-0001"], (p) => p.tasks.link("4", "EPC-H-0001")],
  [["task", "link", "4", "EPC-H-0001"], (p) => p.tasks.link("4", "EPC-H-0001")],
  [["task", "unlink", "4"], (p) => p.tasks.unlink("4")],
  [["task", "priority", "4", "low"], (p) => p.tasks.priority("4", "low")],
  [
    ["task", "edit", "4", "--title", "Document login", "--description", "for users", "--role", "documentarian"],
    (p) => p.tasks.edit("4", { title: "Document login", description: "for users", role: "documentarian" }),
  ],
  [["task", "edit", "4"], (p) => p.tasks.edit("4", {})],
  [["task", "history", "2"], (p) => p.tasks.history("2")],
  [["task", "plan", "2"], (p) => p.tasks.plan("2")],
  [["epic", "show", "1"], (p) => p.epics.show("1")],
  [["epic", "list"], (p) => p.epics.list()],
  [["epic", "link", "EPC-H-0001", "4", "5"], (p) => p.epics.link("EPC-H-0001", ["4", "5"])],
  [["epic", "unlink", "EPC-H-0001", "5"], (p) => p.epics.unlink("EPC-H-0001", "5")],
  [
    ["epic", "edit", "1", "--title", "Sign-in", "--priority", "critical", "--description", "all of it"],
    (p) => p.epics.edit("1", { title: "Sign-in", priority: "critical", description: "all of it" }),
  ],
  [["epic", "abort", "EPC-C-0001", "--reason", "descoped"], (p) => p.epics.abort("EPC-C-0001", { reason: "descoped" })],
  [["mission", "show", "MSN-0001"], (p) => p.missions.show("MSN-0001")],
  [["mission", "list", "--active"], (p) => p.missions.list({ active: true })],
  [["mission", "list"], (p) => p.missions.list()],
  [["task", "claim", "5", "--force", "--mission", "MSN-0001"], (p) => p.tasks.claim("5", { force: true, ...M1 })],
  [
    ["mission", "end", "--summary", "login done", "--release", "--mission", "MSN-0001"],
    (p) => p.missions.end(undefined, { summary: "login done", release: true, ...M1 }),
  ],
  [["mission", "end", "MSN-0002", "--remove-worktree"], (p) => p.missions.end("MSN-0002", { removeWorktree: true })],
  [["mission", "end", "MSN-0002"], (p) => p.missions.end("MSN-0002")],
  [["persona", "list", "--role", "engineer"], (p) => p.personas.list({ role: "engineer" })],
  [["persona", "suggest", "tester"], (p) => p.personas.suggest("tester")],
  [["persona", "activity"], (p) => p.personas.activity()],
  [
    ["persona", "add", "Kestrel", "--role", "eng", "--bio", "Keeps the forge"],
    (p) => p.personas.add("Kestrel", { role: "eng", bio: "Keeps the forge" }),
  ],
  [["persona", "add", "Brigid", "--role", "eng"], (p) => p.personas.add("Brigid", { role: "eng" })],
  [["dashboard"], (p) => p.dashboard()],
  [
    ["dashboard", "--epic", "EPC-C-0001", "--role", "engineer"],
    (p) => p.dashboard({ epic: "EPC-C-0001", role: "engineer" }),
  ],
  [["log", "-n", "5"], (p) => p.log({ limit: 5 })],
  [["log"], (p) => p.log()],
  [["doctor"], (p) => p.doctor()],
  [["doctor", "--fix", "--break-lock"], (p) => p.doctor({ fix: true, breakLock: true })],
  [["doctor", "--full"], (p) => p.doctor({ full: true })],
  [["doctor", "--recover"], (p) => p.recover()],
  // --force on every command that names records (DESIGN §1.2: act through a renumbered number).
  [
    ["task", "create", "--title", "Forced", "--role", "eng", "--depends-on", "1", "--force"],
    (p) => p.tasks.create({ title: "Forced", role: "eng", dependsOn: "1", force: true }),
  ],
  [["task", "note", "5", "forced note", "--force"], (p) => p.tasks.note("5", "forced note", { force: true })],
  [["task", "priority", "5", "high", "--force"], (p) => p.tasks.priority("5", "high", { force: true })],
  [
    ["task", "edit", "5", "--title", "Forced edit", "--force"],
    (p) => p.tasks.edit("5", { title: "Forced edit", force: true }),
  ],
  [["task", "depend", "5", "1", "--force"], (p) => p.tasks.depend("5", "1", { force: true })],
  [["task", "undepend", "5", "1", "--force"], (p) => p.tasks.undepend("5", "1", { force: true })],
  [["task", "link", "5", "EPC-C-0001", "--force"], (p) => p.tasks.link("5", "EPC-C-0001", { force: true })],
  [["task", "unlink", "5", "--force"], (p) => p.tasks.unlink("5", { force: true })],
  [
    ["task", "update", "5", "--status", "blocked", "--notes", "waiting", "--force"],
    (p) => p.tasks.update("5", { status: "blocked", notes: "waiting", force: true }),
  ],
  [["task", "update", "5", "--status", "todo", "--force"], (p) => p.tasks.update("5", { status: "todo", force: true })],
  [
    ["task", "handoff", "5", "--notes", "over to you", "--force"],
    (p) => p.tasks.handoff("5", { notes: "over to you", force: true }),
  ],
  [
    ["task", "unassign", "5", "--notes", "back to the pool", "--force"],
    (p) => p.tasks.unassign("5", { notes: "back to the pool", force: true }),
  ],
  [
    ["task", "close", "5", "--status", "aborted", "--notes", "not needed", "--force"],
    (p) => p.tasks.close("5", { status: "aborted", notes: "not needed", force: true }),
  ],
  [
    ["task", "reopen", "5", "--notes", "needed after all", "--force"],
    (p) => p.tasks.reopen("5", { notes: "needed after all", force: true }),
  ],
  [["task", "import", "plan.yaml", "--force"], (p) => p.tasks.import("plan.yaml", { force: true })],
  [["epic", "create", "--title", "Billing", "--force"], (p) => p.epics.create({ title: "Billing", force: true })],
  [["epic", "link", "2", "5", "--force"], (p) => p.epics.link("2", "5", { force: true })],
  [["epic", "unlink", "2", "5", "--force"], (p) => p.epics.unlink("2", "5", { force: true })],
  [["epic", "edit", "2", "--priority", "low", "--force"], (p) => p.epics.edit("2", { priority: "low", force: true })],
  [["epic", "abort", "2", "--reason", "later", "--force"], (p) => p.epics.abort("2", { reason: "later", force: true })],
  [
    ["review", "create", "--title", "Billing design", "--task", "5", "--force"],
    (p) => p.reviews.create({ title: "Billing design", task: "5", force: true }),
  ],
  [["mission", "end", "MSN-0003", "--force"], (p) => p.missions.end("MSN-0003", { force: true })],
  [["persona", "add", "Ogma", "--role", "doc", "--force"], (p) => p.personas.add("Ogma", { role: "doc", force: true })],
  // Labels and acceptance criteria (task 9: the plan's import with --force made 7 and 8).
  [
    [
      "task",
      "create",
      "--title",
      "Token API",
      "--role",
      "eng",
      "--label",
      "api",
      "--label",
      "Auth,db",
      "--ac",
      "returns 404 for unknown ids",
      "--ac",
      "documented, with examples",
    ],
    (p) =>
      p.tasks.create({
        title: "Token API",
        role: "eng",
        labels: ["api", "Auth,db"],
        acceptance: ["returns 404 for unknown ids", "documented, with examples"],
      }),
  ],
  [
    ["task", "create", "--title", "Bad label", "--role", "eng", "--label", "has space"],
    (p) => p.tasks.create({ title: "Bad label", role: "eng", labels: "has space" }),
  ],
  [["task", "label", "9", "ui", "API"], (p) => p.tasks.label("9", ["ui", "API"])],
  [["task", "label", "9", "api", "--force"], (p) => p.tasks.label("9", "api", { force: true })],
  [["task", "unlabel", "9", "db", "--force"], (p) => p.tasks.unlabel("9", "db", { force: true })],
  [["task", "unlabel", "9", "zz"], (p) => p.tasks.unlabel("9", "zz")],
  [["task", "ac", "9", "rate limited", "--force"], (p) => p.tasks.ac("9", "rate limited", { force: true })],
  [["task", "ac", "9", "two\nlines"], (p) => p.tasks.ac("9", "two\nlines")],
  [["task", "check", "9", "1", "--force"], (p) => p.tasks.check("9", 1, { force: true })],
  [["task", "check", "9", "1"], (p) => p.tasks.check("9", "1")],
  [["task", "check", "9", "7"], (p) => p.tasks.check("9", 7)],
  [["task", "uncheck", "9", "1", "--force"], (p) => p.tasks.uncheck("9", 1, { force: true })],
  [["task", "uncheck", "9", "1"], (p) => p.tasks.uncheck("9", 1)],
  [["task", "list", "--label", "api", "--label", "ui"], (p) => p.tasks.list({ label: ["api", "ui"] })],
  [["task", "list", "--label", "nowhere"], (p) => p.tasks.list({ label: "nowhere" })],
  [["task", "next", "--label", "API", "--role", "eng"], (p) => p.tasks.next({ label: "API", role: "eng" })],
  [["task", "search", "auth"], (p) => p.tasks.search("auth")],
  [
    ["mission", "start", "--role", "engineer", "--persona", "Talos"],
    (p) => p.missions.start({ role: "engineer", persona: "Talos" }),
  ],
  [["task", "claim", "9", "--mission", "MSN-0004"], (p) => p.tasks.claim("9", { mission: "MSN-0004" })],
  [["task", "close", "9", "--mission", "MSN-0004"], (p) => p.tasks.close("9", { mission: "MSN-0004" })],
  [
    ["task", "update", "9", "--status", "review", "--mission", "MSN-0004"],
    (p) => p.tasks.update("9", { status: "review", mission: "MSN-0004" }),
  ],
  [["review", "approve", "RVW-005"], (p) => p.reviews.approve("RVW-005")],
  [["review", "approve", "RVW-005", "--force"], (p) => p.reviews.approve("RVW-005", { force: true })],
  [["task", "show", "9"], (p) => p.tasks.show("9")],
  [["config", "show"], (p) => p.config.show()],
  [
    ["config", "set", "customization.personas_theme", "constellations"],
    (p) => p.config.set("customization.personas_theme", "constellations"),
  ],
  [["config", "set", "roles", "engineer,wizard"], (p) => p.config.set("roles", "engineer,wizard")],
  [
    ["config", "set", "features.commit_guidelines", "false"],
    (p) => p.config.set("features.commit_guidelines", "false"),
  ],
  [["sync"], (p) => p.sync()],
  [["sync", "origin"], (p) => p.sync({ remote: "origin" })],
  [["sync", "--all"], (p) => p.sync({ all: true })],
  [["sync", "upstream"], (p) => p.sync({ remote: "upstream" })],
  [["sync", "origin", "--accept-rewrite"], (p) => p.sync({ remote: "origin", acceptRewrite: true })],
  [["sync", "origin", "--restore"], (p) => p.sync({ remote: "origin", restore: true })],
  [["sync", "origin", "--adopt-remote"], (p) => p.sync({ remote: "origin", adoptRemote: true })],
];

/** Commands the API leaves out (DESIGN §4.1a), and options that only make sense at a terminal. */
const NOT_IN_API = new Set([
  "init",
  "summon",
  "demo",
  "hook commit-msg",
  "hook event",
  "mcp",
  "completion",
  "__complete",
  "web",
  "status",
]);
const TERMINAL_OPTIONS = new Set(["dashboard --watch", "status --watch"]);

/** What differs between two runs of the same commands: times, commit ids, note ids. */
function normalise(value: unknown): unknown {
  const text = JSON.stringify(value ?? null)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
    .replace(/\b[0-9a-f]{40}\b/g, "<oid>")
    .replace(/"id":"[0-9a-f]{12}"/g, '"id":"<note>"');
  return JSON.parse(text);
}

/** The same seeded generator on both sides: codenames and picked names come from ids.random. */
function seedRandom(): void {
  let x = 42;
  vi.spyOn(Math, "random").mockImplementation(() => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  });
}

function world(): string {
  const root = tempDir("pantheon-parity-");
  const repo = join(root, "repo");
  mkdirSync(repo);
  git(root, "init", "-q", "--bare", "origin.git");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  // A relative URL, so that a copy of the whole world syncs with its own origin.
  git(repo, "remote", "add", "origin", "../origin.git");
  writeFileSync(
    join(repo, "plan.yaml"),
    "- { title: Write the docs, role: documentarian, key: docs }\n- { title: Release, role: operator, priority: low, depends_on: [docs] }\n",
  );
  return root;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("pantheon/api and the CLI", () => {
  it("return the same data and the same errors for every command, step by step", async () => {
    const a = world();
    expect((await runCli(["init", "--yes"], { cwd: join(a, "repo") })).exitCode).toBe(0);
    const b = tempDir("pantheon-parity-");
    cpSync(a, b, { recursive: true });
    const api = createPantheon({ cwd: join(b, "repo"), env: testEnv({ NO_COLOR: "1" }), onWarning: () => {} });
    for (const [argv, call] of STEPS) {
      seedRandom();
      const cli = await runCli([...argv, "--json"], { cwd: join(a, "repo") });
      seedRandom();
      let viaApi: { data?: unknown; code?: string; exitCode?: number };
      try {
        viaApi = { data: await call(api) };
      } catch (e) {
        if (!(e instanceof PantheonError)) throw e;
        viaApi = { code: e.code, exitCode: e.exitCode };
      }
      const label = `pantheon ${argv.join(" ")}`;
      if (cli.stdout.trim() !== "") {
        // doctor prints its report and exits 1 when it finds errors; the API returns the report.
        expect(normalise(viaApi.data), label).toEqual(normalise(JSON.parse(cli.stdout).data));
      } else {
        const error = JSON.parse(cli.stderr).error as { code: string };
        expect({ code: viaApi.code, exitCode: viaApi.exitCode }, `${label}: ${cli.stderr}`).toEqual({
          code: error.code,
          exitCode: cli.exitCode,
        });
      }
    }
  });

  it("cover every command and every option of the CLI but those DESIGN §4.1a leaves out", async () => {
    const app = new App(
      { stdout: { write: () => {} }, stderr: { write: () => {} }, stdinIsTTY: false, env: {}, cwd: "/" },
      openStore,
    );
    const program = await buildProgram(app, []);
    const leaves: Array<{ path: string; options: string[] }> = [];
    const walk = (cmd: Command, path: string[]) => {
      if (cmd.commands.length === 0)
        leaves.push({
          path: path.join(" "),
          options: cmd.options.map((o) => o.long ?? o.short!).filter((f) => f !== "--help"),
        });
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    for (const c of program.commands) walk(c, [c.name()]);
    const stepsOf = (path: string) =>
      STEPS.map(([argv]) => argv).filter((argv) => argv.join(" ").startsWith(`${path} `) || argv.join(" ") === path);
    const missing: string[] = [];
    for (const leaf of leaves.filter((l) => !NOT_IN_API.has(l.path))) {
      const steps = stepsOf(leaf.path);
      if (steps.length === 0) missing.push(leaf.path);
      for (const option of leaf.options) {
        if (!TERMINAL_OPTIONS.has(`${leaf.path} ${option}`) && !steps.some((argv) => argv.includes(option)))
          missing.push(`${leaf.path} ${option}`);
      }
    }
    expect(missing, "commands or options with no step here: add the API method or field, and a step").toEqual([]);
    expect(leaves.length).toBeGreaterThan(50);
  });
});
