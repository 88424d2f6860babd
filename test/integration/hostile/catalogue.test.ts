/**
 * The hostile-input catalogue (issue 6 item 3; DESIGN §4.2, §4.3, §7 "bad input"): one table of
 * invalid invocations, each checked against the whole error contract:
 *
 * - the exit code DESIGN §4.3 assigns (2 usage, 1 domain failure, 3 sync could not complete);
 * - stdout is empty; stderr is exactly `✗ <one-line message>` and `  hint: <something>`;
 * - no stack trace (`    at ` lines) and no raw escape byte;
 * - with `--json`, stderr is exactly one JSON document `{"error":{code,message,hint}}`;
 * - `refs/coordination/main` is exactly where it was (for both runs).
 *
 * Then a round trip: text with any Unicode, quotes, tabs and control characters is stored and
 * returned exactly by `--json`, and never printed raw to a terminal.
 *
 * Every case runs in its own copy of one seeded repository (copying is ~10 ms; seeding ~1 s), so
 * a case that wrongly succeeds cannot change what the next one sees.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { git, makeRepo, readStateFile, stateRef } from "../../helpers/repo.js";

// ---------------------------------------------------------------------------------------------
// Where a case runs

/** Files the cases name (configs, import lists): written once, before the table is used. */
const FILES = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-hostile-files-")));
/** The seeded repository every "project" case copies. */
let TEMPLATE = "";
/** Every temporary folder made here, removed after the file. */
const CLEANUP: string[] = [FILES];

const file = (name: string) => join(FILES, name);

/** Where a case runs: a copy of the seeded project (the default), a repository without `init`, or no repository. */
type Where = "project" | "uninitialized" | "no-repo";

interface Setup {
  where?: Where;
  /** Extra preparation inside the folder (after the copy), with real git or pantheon itself. */
  prepare?: (dir: string) => void | Promise<void>;
}

interface Row {
  name: string;
  argv: string[];
  setup?: Setup;
  /** DESIGN §4.3: 2 usage, 1 domain failure; 3 only where sync cannot complete (see its row). */
  expectExit: 1 | 2 | 3;
  /** What the `✗` line must also say. */
  messageMatches?: RegExp;
}

const UNINIT: Setup = { where: "uninitialized" };
const NO_REPO: Setup = { where: "no-repo" };
const withRemote = (name: string, url: string): Setup => ({
  prepare: (dir) => void git(dir, "remote", "add", name, url),
});

const MISSING_DIR = "/nonexistent/pantheon-hostile-nowhere";
const HUGE_TITLE = "T".repeat(100_000);
const HUGE_TEXT = "d".repeat(20_001);
const HEPH = ["--as", "Hephaestus"];

/**
 * The seeded project (see seed()): missions MSN-0001 Hephaestus (engineer, ACTIVE) and MSN-0002
 * Icarus (engineer, ENDED); tasks ENG-M-0001 "One" and ENG-M-0002 "Two" (depends on 0001);
 * epic EPC-M-0001; review RVW-001 of ENG-M-0001.
 */
const ROWS: Row[] = [
  // Titles and texts
  {
    name: "empty title",
    argv: ["task", "create", "--title", "", "--role", "eng"],
    expectExit: 2,
    messageMatches: /title/,
  },
  {
    name: "blank title (spaces, tab, newline)",
    argv: ["task", "create", "--title", " \t\n ", "--role", "eng"],
    expectExit: 2,
    messageMatches: /title/,
  },
  {
    name: "huge title (100,000 characters)",
    argv: ["task", "create", "--title", HUGE_TITLE, "--role", "eng"],
    expectExit: 2,
    messageMatches: /200/,
  },
  {
    name: "huge title on task edit",
    argv: ["task", "edit", "1", "--title", HUGE_TITLE],
    expectExit: 2,
    messageMatches: /200/,
  },
  { name: "huge epic title", argv: ["epic", "create", "--title", HUGE_TITLE], expectExit: 2, messageMatches: /200/ },
  {
    name: "description over 20,000 characters",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--description", HUGE_TEXT],
    expectExit: 2,
    messageMatches: /20000|20,000/,
  },
  {
    name: "note over 20,000 characters",
    argv: ["task", "note", "1", HUGE_TEXT],
    expectExit: 2,
    messageMatches: /20000|20,000/,
  },

  // Ids: path separators, newlines, control characters, look-alikes
  { name: "task id with ../", argv: ["task", "show", "../1"], expectExit: 2, messageMatches: /\.\.\/1/ },
  {
    name: "task id that is a state path",
    argv: ["task", "show", "tasks/01/1.json"],
    expectExit: 2,
    messageMatches: /tasks\/01\/1\.json/,
  },
  { name: "task id with a backslash", argv: ["task", "note", "..\\1", "x"], expectExit: 2 },
  {
    name: "task id with a newline (claim)",
    argv: [...HEPH, "task", "claim", "1\nENG-M-0002"],
    expectExit: 2,
    messageMatches: /\\n/,
  },
  {
    name: "task id with ESC (CSI clear screen)",
    argv: ["task", "note", "1\u001b[2J", "x"],
    expectExit: 2,
    messageMatches: /1\\u001b\[2J|\\e\[2J/,
  },
  { name: "task id with BEL", argv: ["task", "show", "1\u0007"], expectExit: 2 },
  {
    name: "task id with a Unicode hyphen look-alike (U+2010)",
    argv: ["task", "show", "ENG\u2010M\u20100001"],
    expectExit: 2,
  },
  { name: "task id in fullwidth digits", argv: ["task", "show", "\uff11"], expectExit: 2 },
  { name: "task id with a Cyrillic look-alike letter", argv: ["task", "close", "\u0415NG-M-0001"], expectExit: 2 },
  { name: "dependency id with a path separator", argv: ["task", "depend", "2", "1/../1"], expectExit: 2 },
  { name: "epic id with a path separator", argv: ["epic", "show", "EPC-M-0001/x"], expectExit: 2 },
  { name: "review id with ../", argv: ["review", "show", "RVW-../1"], expectExit: 2 },
  { name: "mission id with a backslash", argv: ["--mission", "MSN-0001\\..", "task", "show", "1"], expectExit: 2 },
  { name: "persona name with a newline", argv: ["--as", "Heph\naestus", "task", "show", "1"], expectExit: 2 },

  // Unknown statuses, roles, priorities, review types
  {
    name: "unknown status (task update)",
    argv: ["task", "update", "1", "--status", "DOING"],
    expectExit: 2,
    messageMatches: /DOING/,
  },
  {
    name: "status in fullwidth letters (task list)",
    argv: ["task", "list", "--status", "\uff34\uff2f\uff24\uff2f"],
    expectExit: 2,
  },
  {
    name: "unknown role (task create)",
    argv: ["task", "create", "--title", "x", "--role", "wizard"],
    expectExit: 2,
    messageMatches: /wizard/,
  },
  {
    name: "unknown role (mission start)",
    argv: ["mission", "start", "--role", "wizard", "--persona", "Ares"],
    expectExit: 2,
    messageMatches: /wizard/,
  },
  {
    name: "unknown role (persona add)",
    argv: ["persona", "add", "Ares", "--role", "wizard"],
    expectExit: 2,
    messageMatches: /wizard/,
  },
  {
    name: "administrator as a task's role",
    argv: ["task", "create", "--title", "x", "--role", "administrator"],
    expectExit: 2,
    messageMatches: /administrator/,
  },
  {
    name: "unknown priority (task create)",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--priority", "urgent"],
    expectExit: 2,
    messageMatches: /urgent/,
  },
  {
    name: "unknown priority (task priority)",
    argv: ["task", "priority", "1", "P0"],
    expectExit: 2,
    messageMatches: /P0/,
  },
  {
    name: "unknown priority (epic create)",
    argv: ["epic", "create", "--title", "x", "--priority", "someday"],
    expectExit: 2,
    messageMatches: /someday/,
  },
  {
    name: "unknown review type",
    argv: ["review", "create", "--title", "x", "--type", "vibes"],
    expectExit: 2,
    messageMatches: /vibes/,
  },
  {
    name: "unknown review status (review list)",
    argv: ["review", "list", "--status", "MAYBE"],
    expectExit: 2,
    messageMatches: /MAYBE/,
  },

  // Dependency cycles and self-dependencies
  {
    name: "dependency cycle (ENG-M-0001 on ENG-M-0002, which depends on it)",
    argv: ["task", "depend", "1", "2"],
    expectExit: 1,
    messageMatches: /cycle/,
  },
  { name: "self-dependency", argv: ["task", "depend", "1", "1"], expectExit: 1, messageMatches: /itself/ },

  // Links to records that do not exist
  {
    name: "dependency on a missing task (create)",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--depends-on", "999"],
    expectExit: 1,
    messageMatches: /999/,
  },
  {
    name: "dependency on a missing task (depend)",
    argv: ["task", "depend", "2", "ENG-H-0999"],
    expectExit: 1,
    messageMatches: /999/,
  },
  {
    name: "task link to a missing epic",
    argv: ["task", "link", "1", "EPC-M-0099"],
    expectExit: 1,
    messageMatches: /99/,
  },
  {
    name: "task create in a missing epic",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--epic", "EPC-H-0042"],
    expectExit: 1,
    messageMatches: /42/,
  },
  {
    name: "epic link of a missing epic",
    argv: ["epic", "link", "EPC-H-0099", "1"],
    expectExit: 1,
    messageMatches: /99/,
  },
  {
    name: "epic link of a missing task",
    argv: ["epic", "link", "EPC-M-0001", "ENG-M-0999"],
    expectExit: 1,
    messageMatches: /999/,
  },
  {
    name: "review of a missing task",
    argv: ["review", "create", "--title", "x", "--task", "999"],
    expectExit: 1,
    messageMatches: /999/,
  },
  {
    name: "approving a missing review",
    argv: ["review", "approve", "RVW-099"],
    expectExit: 1,
    messageMatches: /RVW-099/,
  },
  {
    name: "acting on a missing mission",
    argv: ["--mission", "MSN-0099", "task", "note", "1", "x"],
    expectExit: 1,
    messageMatches: /MSN-0099/,
  },
  { name: "ending a missing mission", argv: ["mission", "end", "MSN-0099"], expectExit: 1, messageMatches: /MSN-0099/ },
  { name: "showing a missing task", argv: ["task", "show", "ENG-C-0404"], expectExit: 1, messageMatches: /404/ },

  // Ended missions
  {
    name: "an ENDED mission claiming",
    argv: ["--mission", "MSN-0002", "task", "claim", "1"],
    expectExit: 1,
    messageMatches: /ENDED/,
  },
  {
    name: "a persona whose only mission ENDED claiming",
    argv: ["--as", "Icarus", "task", "claim", "1"],
    expectExit: 1,
    messageMatches: /Icarus/,
  },
  { name: "ending an ENDED mission", argv: ["mission", "end", "MSN-0002"], expectExit: 1, messageMatches: /MSN-0002/ },
  {
    name: "claiming an unclaimed BLOCKED task",
    argv: [...HEPH, "task", "claim", "2"],
    setup: {
      prepare: (dir) => ok(dir, ["task", "update", "2", "--status", "BLOCKED", "--notes", "waiting on a vendor"]),
    },
    expectExit: 1,
    // The refusal names the state; there is no earlier claim to speak of ("its claim by null").
    messageMatches: /^(?!.*\bnull\b).*BLOCKED/,
  },
  {
    name: "a second ACTIVE mission for one persona name",
    argv: ["mission", "start", "--role", "eng", "--persona", "Hephaestus"],
    expectExit: 1,
    messageMatches: /Hephaestus/,
  },

  // Unknown commands and flags
  { name: "unknown command", argv: ["frobnicate"], expectExit: 2, messageMatches: /frobnicate/ },
  { name: "unknown subcommand", argv: ["task", "frobnicate"], expectExit: 2, messageMatches: /frobnicate/ },
  { name: "unknown flag", argv: ["task", "list", "--wat"], expectExit: 2, messageMatches: /--wat/ },
  {
    name: "unknown global flag before the command",
    argv: ["--wat", "task", "list"],
    expectExit: 2,
    messageMatches: /--wat/,
  },
  {
    name: "unknown flag on a mutation",
    argv: ["task", "create", "--title", "x", "--role", "eng", "--colour", "red"],
    expectExit: 2,
    messageMatches: /--colour/,
  },
  { name: "negative --limit", argv: ["task", "list", "--limit", "-1"], expectExit: 2, messageMatches: /--limit/ },

  // Missing required options and arguments
  {
    name: "task create without --role",
    argv: ["task", "create", "--title", "x"],
    expectExit: 2,
    messageMatches: /--role/,
  },
  {
    name: "mission start without --role",
    argv: ["mission", "start", "--persona", "Ares"],
    expectExit: 2,
    messageMatches: /--role/,
  },
  {
    name: "review reject without --reason",
    argv: ["review", "reject", "RVW-001"],
    expectExit: 2,
    messageMatches: /--reason/,
  },
  {
    name: "epic abort without --reason",
    argv: ["epic", "abort", "EPC-M-0001"],
    expectExit: 2,
    messageMatches: /--reason/,
  },
  { name: "handoff without --notes", argv: ["task", "handoff", "1"], expectExit: 2, messageMatches: /--notes/ },
  { name: "task show without an id", argv: ["task", "show"], expectExit: 2 },
  { name: "summon without a role and no terminal to ask", argv: ["summon"], expectExit: 2, messageMatches: /role/ },

  // Finding the repository
  {
    name: "-C to a missing directory",
    argv: ["-C", MISSING_DIR, "task", "list"],
    expectExit: 1,
    messageMatches: /pantheon-hostile-nowhere/,
  },
  {
    name: "outside a git repository",
    argv: ["task", "list"],
    setup: NO_REPO,
    expectExit: 1,
    messageMatches: /git repository/,
  },
  {
    name: "outside a git repository (a mutation)",
    argv: ["task", "create", "--title", "x", "--role", "eng"],
    setup: NO_REPO,
    expectExit: 1,
  },
  {
    name: "before init (a read)",
    argv: ["task", "list"],
    setup: UNINIT,
    expectExit: 1,
    messageMatches: /refs\/coordination\/main/,
  },
  {
    name: "before init (a mutation)",
    argv: ["mission", "start", "--role", "eng", "--persona", "Ares"],
    setup: UNINIT,
    expectExit: 1,
  },

  // YAML configs
  {
    name: "config: project.name of the wrong type",
    argv: ["init", "--config", file("name-number.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /project\.name/,
  },
  {
    name: "config: a feature that is a string, not a boolean",
    argv: ["init", "--config", file("feature-string.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /features\.pm_system/,
  },
  {
    name: "config: roles not a list",
    argv: ["init", "--config", file("roles-string.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /roles/,
  },
  {
    name: "config: an unknown role",
    argv: ["init", "--config", file("roles-unknown.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /wizard/,
  },
  {
    name: "config: an unknown key",
    argv: ["init", "--config", file("unknown-key.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /project\.colour/,
  },
  {
    name: "config: an unknown top-level key",
    argv: ["init", "--config", file("unknown-top.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /telemetry/,
  },
  {
    name: "config: invalid YAML",
    argv: ["init", "--config", file("invalid.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /YAML/,
  },
  {
    name: "config: a missing file",
    argv: ["init", "--config", file("absent.yaml")],
    setup: UNINIT,
    expectExit: 2,
    messageMatches: /absent\.yaml/,
  },

  // task import
  {
    name: "import: an entry with an unknown role",
    argv: ["task", "import", file("import-bad-role.yaml")],
    expectExit: 2,
    messageMatches: /entry 2/,
  },
  {
    name: "import: an entry with a blank title",
    argv: ["task", "import", file("import-blank.yaml")],
    expectExit: 2,
    messageMatches: /entry 1/,
  },
  {
    name: "import: an entry with an unknown key",
    argv: ["task", "import", file("import-unknown-key.json")],
    expectExit: 2,
    messageMatches: /colour/,
  },
  { name: "import: not a list", argv: ["task", "import", file("import-not-list.yaml")], expectExit: 2 },
  {
    name: "import: an entry depending on a missing task",
    argv: ["task", "import", file("import-missing-dep.yaml")],
    expectExit: 1,
    messageMatches: /99/,
  },

  // sync
  {
    name: "sync with an unknown remote name",
    argv: ["sync", "nosuch"],
    setup: withRemote("origin", join(FILES, "origin-that-is-not-there.git")),
    expectExit: 2,
    messageMatches: /nosuch/,
  },
  // Exit 3, not 1 or 2: the remote is configured correctly as far as pantheon can tell, and it is
  // git's transport that fails ("does not appear to be a git repository"). DESIGN §4.3 gives 3 to
  // "sync could not complete", and docs/sync.md says transport errors are one line, exit 3.
  {
    name: "sync with a remote whose URL is not a repository (exit 3: sync could not complete)",
    argv: ["sync", "gone"],
    setup: withRemote("gone", join(FILES, "not-a-repo")),
    expectExit: 3,
    messageMatches: /gone/,
  },
  { name: "sync without any remote", argv: ["sync"], expectExit: 2, messageMatches: /remote/ },

  // summon
  {
    name: "summon --assistant nope",
    argv: ["summon", "engineer", "--assistant", "nope"],
    expectExit: 2,
    messageMatches: /nope/,
  },
  {
    name: "summon an unknown role",
    argv: ["summon", "wizard", "--assistant", "claude", "--dry-run"],
    expectExit: 2,
    messageMatches: /wizard/,
  },
  {
    name: "summon --template with a path",
    argv: ["summon", "engineer", "--assistant", "claude", "--template", "../../etc/passwd", "--dry-run"],
    expectExit: 2,
  },
];

function writeFiles(): void {
  const files: Record<string, string> = {
    "name-number.yaml": "project:\n  name: 5\n",
    "feature-string.yaml": 'features:\n  pm_system: "yes"\n',
    "roles-string.yaml": "roles: engineer\n",
    "roles-unknown.yaml": "roles: [engineer, wizard]\n",
    "unknown-key.yaml": "project:\n  name: demo\n  colour: red\n",
    "unknown-top.yaml": "project:\n  name: demo\ntelemetry: true\n",
    "invalid.yaml": "project: [\n  name: : demo\n",
    "import-bad-role.yaml": "- title: fine\n  role: engineer\n- title: bad\n  role: wizard\n",
    "import-blank.yaml": '- title: ""\n  role: engineer\n',
    "import-unknown-key.json": '[{"title": "a", "role": "engineer", "colour": "red"}]\n',
    "import-not-list.yaml": "title: a\nrole: engineer\n",
    "import-missing-dep.yaml": "- title: a\n  role: engineer\n  depends_on: [99]\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(file(name), text);
  mkdirSync(file("not-a-repo"));
}

async function ok(cwd: string, argv: string[]): Promise<void> {
  const r = await runCli(argv, { cwd });
  if (r.exitCode !== 0) throw new Error(`seed: pantheon ${argv.join(" ")} exited ${r.exitCode}: ${r.stderr}`);
}

async function seed(dir: string): Promise<void> {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
  await ok(dir, ["init", "--yes"]);
  await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await ok(dir, ["mission", "start", "--role", "engineer", "--persona", "Icarus"]);
  await ok(dir, ["mission", "end", "MSN-0002"]);
  await ok(dir, ["task", "create", "--title", "One", "--role", "engineer"]);
  await ok(dir, ["task", "create", "--title", "Two", "--role", "engineer", "--depends-on", "1"]);
  await ok(dir, ["epic", "create", "--title", "Epic"]);
  await ok(dir, ["review", "create", "--title", "Check One", "--task", "1"]);
}

function freshDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  CLEANUP.push(dir);
  return dir;
}

/** The folder a case runs in, prepared as its setup says. */
async function place(setup: Setup | undefined): Promise<string> {
  const where = setup?.where ?? "project";
  let dir: string;
  if (where === "project") {
    dir = freshDir("pantheon-hostile-case-");
    cpSync(TEMPLATE, dir, { recursive: true });
  } else {
    dir = freshDir("pantheon-hostile-bare-");
    if (where === "uninitialized") {
      git(dir, "init", "-q", "-b", "main");
      git(dir, "commit", "-q", "--allow-empty", "-m", "initial");
    }
  }
  await setup?.prepare?.(dir);
  return dir;
}

beforeAll(async () => {
  writeFiles();
  TEMPLATE = freshDir("pantheon-hostile-template-");
  await seed(TEMPLATE);
}, 60_000);

afterAll(() => {
  for (const dir of CLEANUP) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The contract

const STACK = /^\s+at \S/m;

function expectHumanError(r: CliResult, row: Row): void {
  const label = `${row.name}: pantheon ${JSON.stringify(row.argv).slice(0, 200)}\nexit ${r.exitCode}\nstdout: ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 1000)}`;
  expect.soft(r.exitCode, label).toBe(row.expectExit);
  expect.soft(r.stdout, `stdout is empty; ${label}`).toBe("");
  expect.soft(r.stderr, `no stack trace; ${label}`).not.toMatch(STACK);
  expect
    .soft(r.stderr, `no raw control byte on stderr; ${label}`)
    .not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect.soft(r.stderr.endsWith("\n"), `stderr ends with a newline; ${label}`).toBe(true);
  const lines = r.stderr.replace(/\n$/, "").split("\n");
  expect.soft(lines, `exactly a one-line message and a hint; ${label}`).toHaveLength(2);
  expect.soft(lines[0] ?? "", `the first line is the ✗ message; ${label}`).toMatch(/^✗ \S/);
  expect.soft(lines[1] ?? "", `the second line is the hint; ${label}`).toMatch(/^ {2}hint: \S/);
  if (row.messageMatches)
    expect.soft(lines[0] ?? "", `the message says ${row.messageMatches}; ${label}`).toMatch(row.messageMatches);
}

const CODE_FOR_EXIT: Record<number, RegExp> = {
  1: /^E_(?!USAGE$|INTERNAL$)[A-Z_]+$/,
  2: /^E_USAGE$/,
  3: /^E_(SYNC|CONTENTION|LOCKED)$/,
};

function expectJsonError(r: CliResult, row: Row): void {
  const label = `${row.name} --json\nexit ${r.exitCode}\nstdout: ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 1000)}`;
  expect.soft(r.exitCode, label).toBe(row.expectExit);
  expect.soft(r.stdout, `stdout is empty; ${label}`).toBe("");
  expect.soft(r.stderr, `stderr is one line holding one document; ${label}`).toMatch(/^\{[^\n]*\}\n$/);
  let doc: unknown;
  try {
    doc = JSON.parse(r.stderr);
  } catch {
    expect.soft(r.stderr, `stderr is not one JSON document; ${label}`).toBe("one JSON document");
    return;
  }
  expect.soft(Object.keys(doc as object), label).toEqual(["error"]);
  const e = (doc as { error: Record<string, unknown> }).error;
  expect
    .soft(Object.keys(e ?? {}).sort(), `error has code, message and hint; ${label}`)
    .toEqual(["code", "hint", "message"]);
  expect.soft(e?.code, `the code matches exit ${row.expectExit}; ${label}`).toMatch(CODE_FOR_EXIT[row.expectExit]!);
  // The JSON message carries the raw text (a typed id with a newline stays a newline), so only the human line is checked for one line.
  expect.soft(typeof e?.message === "string" && e.message.length > 0, `a message; ${label}`).toBe(true);
  expect.soft(typeof e?.hint === "string" && e.hint.length > 0, `a hint; ${label}`).toBe(true);
  if (row.messageMatches && typeof e?.message === "string") {
    // The JSON message is the raw text (not escaped for a terminal): compare without escapes.
    const raw = row.messageMatches.source.includes("\\\\") ? null : row.messageMatches;
    if (raw) expect.soft(e.message, label).toMatch(raw);
  }
}

describe(`hostile input catalogue: ${ROWS.length} invalid invocations, each refused cleanly`, () => {
  it("has at least 40 cases, with unique names", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ROWS.map((r) => r.name)).size).toBe(ROWS.length);
  });

  it.each(ROWS)(`[${ROWS.length} cases] $name → exit $expectExit`, async (row) => {
    const dir = await place(row.setup);
    const before = stateRef(dir);
    const human = await runCli(row.argv, { cwd: dir });
    expectHumanError(human, row);
    expect.soft(stateRef(dir), `${row.name}: the ref must not move`).toBe(before);

    const json = await runCli([...row.argv, "--json"], { cwd: dir });
    expectJsonError(json, row);
    expect(stateRef(dir), `${row.name} --json: the ref must not move`).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------
// Round trip

/** Texts a teammate might type (or paste): every one must come back byte for byte. */
const TEXTS: Record<string, string> = {
  cjk: "修复登录 漢字かなカナ 한국어",
  emoji: "Ship it 🚀 👩🏽‍💻 🇫🇷 ❤️‍🔥",
  rtl: "תיקון התחברות مرحبا بالعالم",
  combining: "e\u0301 n\u0303 Z\u0351\u0324a\u0308\u0336l\u035bg\u0310o\u0321",
  quotes: `"double" 'single' \`tick\` \\back\\slash $HOME %s {{persona}}`,
  tabs: "col1\tcol2\t\tcol3",
  escapes: "red \u001b[31mALERT\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u001b]0;pwned\u0007 bell\u0007",
  c0: "nul-free C0: \u0001\u0002\u0008\u000b\u000c\u000e\u001f end",
  c1: "C1 CSI \u009b2J NEL\u0085 DEL\u007f",
  bidi: "invoice \u202egnp.exe \u2066isolate\u2069 \u200fmark",
  multiline: "line 1\r\nline 2\nline 3 ",
};
const ALL = Object.values(TEXTS).join(" | ");
/** Bytes that drive a terminal: ESC, BEL, C1 CSI/OSC, and every other C0/C1 control except newline. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("round trip: any Unicode, quotes, tabs and control characters", () => {
  it(`${Object.keys(TEXTS).length} kinds of text are stored and returned exactly by --json, and never printed raw to a terminal`, async () => {
    const dir = makeRepo();
    const run = (argv: string[], tty = false) => runCli(argv, { cwd: dir, tty });
    const okJson = async (argv: string[]) => {
      const r = await run([...argv, "--json"]);
      expect(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout).data;
    };
    expect((await run(["init", "--yes"])).exitCode).toBe(0);
    await okJson(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    const names = Object.keys(TEXTS);
    const epic = await okJson(["epic", "create", "--title", TEXTS.escapes!, "--description", ALL]);
    expect(epic.title).toBe(TEXTS.escapes);

    // One task per kind of text (title and description), then a note and a handoff carrying it.
    for (const [i, name] of names.entries()) {
      const text = TEXTS[name]!;
      const title = text.trim() === "" ? `${name} ${text}` : text;
      const created = await okJson([
        "task",
        "create",
        "--title",
        title,
        "--role",
        "eng",
        "--description",
        text,
        "--epic",
        epic.id,
      ]);
      expect(created.title, `${name}: create --json`).toBe(title);
      expect(created.number).toBe(i + 1);
      await okJson(["task", "note", created.id, text]);
      const shown = await okJson(["task", "show", created.id]);
      expect(shown.title, `${name}: show --json title`).toBe(title);
      expect(shown.description, `${name}: show --json description`).toBe(text);
      expect(shown.notes.at(-1).text, `${name}: the note`).toBe(text);
      const stored = JSON.parse(readStateFile(dir, `tasks/${String(i + 1).padStart(2, "0")}/${i + 1}.json`));
      expect(stored.title, `${name}: the stored record`).toBe(title);
      expect(stored.description).toBe(text);
    }
    // Edit to the whole mixture (within 200 characters), and a handoff note with it.
    const mixture = `${TEXTS.escapes} ${TEXTS.emoji} ${TEXTS.rtl}`.slice(0, 190);
    expect((await okJson(["task", "edit", "1", "--title", mixture])).title).toBe(mixture);
    await okJson(["--as", "Hephaestus", "task", "claim", "1"]);
    await okJson(["--as", "Hephaestus", "task", "handoff", "1", "--notes", ALL]);
    const review = await okJson(["review", "create", "--title", TEXTS.escapes!, "--task", "2"]);
    expect(review.title).toBe(TEXTS.escapes);

    const listed = await okJson(["task", "list"]);
    expect(listed.map((t: { title: string }) => t.title)).toEqual([mixture, ...names.slice(1).map((n) => TEXTS[n]!)]);
    const one = await okJson(["task", "show", "1"]);
    expect(one.notes.at(-1)).toMatchObject({ kind: "handoff", text: ALL });
    expect((await okJson(["review", "show", review.id])).title).toBe(TEXTS.escapes);
    expect((await okJson(["epic", "show", epic.id])).description).toBe(ALL);

    // On a terminal: no byte that drives it, from any view of these records.
    const views = [
      ["task", "show", "1"],
      ["task", "show", "7"],
      ["task", "show", "9"],
      ["task", "list"],
      ["task", "search", "ALERT"],
      ["task", "history", "1"],
      ["task", "next", "--role", "engineer"],
      ["epic", "show", epic.id],
      ["epic", "list"],
      ["review", "show", review.id],
      ["review", "list"],
      ["dashboard"],
      ["log"],
      ["task", "note", "1", TEXTS.escapes!],
    ];
    for (const argv of views) {
      const r = await run(argv, true);
      expect.soft(r.exitCode, `pantheon ${argv.join(" ")}\n${r.stderr}`).toBe(0);
      expect
        .soft(r.stdout, `pantheon ${argv.join(" ")} on a tty: no raw control character in stdout`)
        .not.toMatch(RAW_CONTROL);
      expect.soft(r.stderr, `pantheon ${argv.join(" ")} on a tty: none in stderr`).not.toMatch(RAW_CONTROL);
    }
    const show = await run(["task", "show", "7"], true);
    expect(show.stdout, "the escapes are shown, not dropped").toContain("\\e[31mALERT\\e[0m");
    expect(show.stdout, "other text is printed as it is").toContain("ALERT");
    const cjk = await run(["task", "show", "1"], true);
    expect(cjk.stdout).toContain("🚀");
  });
});
