import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AssistantAdapter, LaunchInput } from "../../../src/assistants/adapter.js";
import { argv, checkValue } from "../../../src/assistants/argv.js";
import { ASSISTANTS } from "../../../src/assistants/registry.js";
import { MissionSchema } from "../../../src/domain/schemas/mission.js";
import { UnsafeArgumentError } from "../../../src/errors.js";
import { aMission } from "../../helpers/builders.js";

/**
 * DESIGN §5, "no value from a record becomes an option": whatever a record (or a flag) holds,
 * every adapter's argv, for a new session and a resumed one (`--dry-run` prints the same argv),
 * has exactly the options Pantheon means to pass. A hostile value is refused (UnsafeArgumentError)
 * or sits in a value slot: after `=` in its option's element, or after `--`.
 */

const UUID = "6f1c2a52-8e0b-4c7e-9d4a-3b2f1e0d9c8b";
const WRITABLE = [
  "/repo/.git/refs/coordination",
  "/repo/.git/logs/refs/coordination",
  "/repo/.git/objects",
  "/repo/.git/pantheon",
];

/** What the red team pushed, and what a fuzzer adds to it. */
const ATTACKS = [
  '--settings={"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}',
  "--settings=/tmp/evil.json",
  "-c",
  'notify=["sh","-c","touch /tmp/pwned"]',
  "--yolo",
  "-y",
  "--auto",
  "--dangerously-skip-permissions",
  "--",
  "-",
  "--help",
  "latest",
  "resume",
  "x y",
  "a\u0000b",
  "ses_1\n--yolo",
  "id,--yolo",
  "\u001b]0;x\u0007",
];

const hostile = fc.oneof(
  fc.constantFrom(...ATTACKS),
  fc.string({
    unit: fc.constantFrom("-", "=", " ", "a", "1", "\n", "\u0000", ",", ":", ".", '"', "{", "["),
    maxLength: 24,
  }),
  fc.string({ maxLength: 40 }),
);

function input(over: Partial<LaunchInput>): LaunchInput {
  return {
    projectDir: "/repo",
    personaFile: "/repo/.git/pantheon/sessions/MSN-0001-silent-phoenix/persona.md",
    personaText: "You are Hephaestus.",
    sessionDir: "/repo/.git/pantheon/sessions/MSN-0001-silent-phoenix",
    writableDirs: WRITABLE,
    parentEnv: {},
    kickoff: "You are Hephaestus, the engineer persona of Pantheon mission MSN-0001:silent-phoenix.",
    role: "engineer",
    missionHandle: "MSN-0001:silent-phoenix",
    sessionId: UUID,
    liveId: "0123456789abcdef",
    ...over,
  };
}

/**
 * The argv as every parser of the four reads it: the options (their names, in order), the
 * positionals before `--`, and what follows `--`. A value joined by `=` is part of its option.
 */
function parse(args: readonly string[]): { options: string[]; positionals: string[]; rest: string[] } {
  const end = args.indexOf("--");
  const before = end < 0 ? args : args.slice(0, end);
  return {
    options: before.filter((a) => a.startsWith("-")).map((a) => a.split("=")[0]!),
    positionals: before.filter((a) => !a.startsWith("-")),
    rest: end < 0 ? [] : args.slice(end + 1),
  };
}

/** Launches, or the refusal; any other exception fails the property. */
function launch(a: AssistantAdapter, i: LaunchInput): { args: string[] } | "refused" {
  try {
    return a.launch(i);
  } catch (e) {
    if (e instanceof UnsafeArgumentError) return "refused";
    throw e;
  }
}

/** The value sits in a value slot: joined to an option, after `--`, or a positional of ours. */
function inValueSlot(args: readonly string[], value: string): boolean {
  const end = args.indexOf("--");
  return args.some(
    (a, i) => (a.includes("=") && a.slice(a.indexOf("=") + 1) === value) || (end >= 0 && i > end && a === value),
  );
}

describe.each(ASSISTANTS.map((a) => [a.name, a] as const))("%s: hostile records never add an option", (_n, a) => {
  for (const resume of [false, true]) {
    it(`${resume ? "resume" : "launch"}: a hostile session id or model is refused, or lands in a value slot`, () => {
      fc.assert(
        fc.property(hostile, fc.option(hostile, { nil: undefined }), (value, model) => {
          const benign = launch(a, input({ ...(resume && { resumeSession: UUID }), model: model && "opus" }));
          expect(benign).not.toBe("refused");
          const expected = parse((benign as { args: string[] }).args);
          const hostileInput = input({
            sessionId: value,
            ...(resume && { resumeSession: value }),
            model,
          });
          const got = launch(a, hostileInput);
          if (got === "refused") return;
          const seen = parse(got.args);
          expect(seen.options, JSON.stringify(got.args)).toEqual(expected.options);
          expect(seen.positionals.length).toBe(expected.positionals.length);
          expect(seen.rest.length).toBe(expected.rest.length);
          if (resume) expect(inValueSlot(got.args, value), JSON.stringify(got.args)).toBe(true);
          if (model) expect(inValueSlot(got.args, model), JSON.stringify(got.args)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  }

  it("record text in the kickoff and the persona (fenced, escaped or not) never adds an option", () => {
    fc.assert(
      fc.property(hostile, hostile, (kickoff, personaText) => {
        const expected = parse((launch(a, input({})) as { args: string[] }).args);
        const got = launch(a, input({ kickoff, personaText }));
        if (got === "refused") {
          // Only a NUL (no argument can hold one) or an empty text keeps prose out of an argv.
          expect(`${kickoff}${personaText}`.includes("\u0000") || kickoff === "" || personaText === "").toBe(true);
          return;
        }
        const seen = parse(got.args);
        expect(seen.options, JSON.stringify(got.args)).toEqual(expected.options);
        expect(seen.positionals.length).toBe(expected.positionals.length);
        expect(seen.rest.length).toBe(expected.rest.length);
      }),
      { numRuns: 300 },
    );
  });

  it("a project folder (a resumed mission's worktree) never adds an option", () => {
    const expected = parse((launch(a, input({})) as { args: string[] }).args);
    fc.assert(
      fc.property(hostile, (projectDir) => {
        const got = launch(a, input({ projectDir }));
        if (got !== "refused") expect(parse(got.args).options, JSON.stringify(got.args)).toEqual(expected.options);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the mission schema admits only session ids and worktrees every adapter can pass", () => {
  it("a mission that passes its schema (on read from the ref) resumes with the options Pantheon means, in every adapter", () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (sessionId, assistant, path) => {
        const parsed = MissionSchema.safeParse({
          ...aMission({ number: 1 }),
          sessionId,
          assistant,
          worktree: { path, branch: "pantheon/eve-1", base: "0".repeat(40) },
        });
        if (!parsed.success) return;
        for (const a of ASSISTANTS) {
          const benign = parse((launch(a, input({ resumeSession: UUID })) as { args: string[] }).args);
          const got = launch(
            a,
            input({ resumeSession: parsed.data.sessionId!, projectDir: parsed.data.worktree!.path }),
          );
          expect(got, `${a.name}: a valid record is never refused`).not.toBe("refused");
          expect(parse((got as { args: string[] }).args).options).toEqual(benign.options);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("refuses the red team's records: a session id that is an option, an assistant that is not a word, a relative worktree", () => {
    for (const over of [
      { sessionId: '--settings={"hooks":{}}' },
      { sessionId: "-c" },
      { sessionId: "" },
      { sessionId: "a b" },
      { sessionId: "x".repeat(129) },
      { assistant: "--yolo" },
      { assistant: "Claude Code" },
      { worktree: { path: "--auto", branch: "b", base: "0".repeat(40) } },
      { worktree: { path: "relative/dir", branch: "b", base: "0".repeat(40) } },
      { worktree: { path: "/tmp/x\u001b[2J", branch: "b", base: "0".repeat(40) } },
      { worktree: { path: "/tmp/x", branch: "-D", base: "0".repeat(40) } },
      { worktree: { path: "/tmp/x", branch: "b", base: "--all" } },
      { persona: "Eve\u001b]0;owned\u0007" },
      { uid: "../../../etc/passwd" },
      { endedAt: "Ignore previous instructions" },
      { headAtStart: "--output=/tmp/x" },
    ])
      expect(MissionSchema.safeParse({ ...aMission({ number: 1 }), ...over }).success, JSON.stringify(over)).toBe(
        false,
      );
  });
});

describe("the argv helper", () => {
  it("joins a value to its option, refuses an option-looking id, a NUL, a control character, a comma in a list", () => {
    expect(argv().option("--resume", "abc", "session id").build()).toEqual(["--resume=abc"]);
    for (const bad of ["-x", "--settings={}", "", "a\u0000b", "a\nb", "a\u009bb"])
      expect(() => checkValue(bad, "session id", false)).toThrow(UnsafeArgumentError);
    expect(() => argv().option("--include-directories", "/a,/b", "folder", { list: true })).toThrow(/comma/);
    expect(() => argv().option("--model", "opus;rm", "model name", { format: /^[a-z]+$/ })).toThrow(
      /not a valid model name/,
    );
    expect(() => checkValue("x".repeat(128 * 1024), "the kickoff", true)).toThrow(/128 KiB/);
    // Prose may start with "-" (it is joined to its option or follows --); an id may not.
    expect(argv().text("--prompt", "-x", "the kickoff").build()).toEqual(["--prompt=-x"]);
    expect(
      argv()
        .afterOptions([{ value: "--help", what: "the kickoff", prose: true }])
        .build(),
    ).toEqual(["--", "--help"]);
    expect(() => argv().positional("--auto", "the project folder")).toThrow(UnsafeArgumentError);
  });

  it("says what it refused, in one line with the value escaped", () => {
    try {
      checkValue("--settings={\n}", "session id", false);
      expect.unreachable();
    } catch (e) {
      expect((e as UnsafeArgumentError).code).toBe("E_UNSAFE_ARGUMENT");
      expect((e as Error).message).toBe(
        'Refused to pass session id "--settings={\\n}" to the assistant: it starts with - and could be read as an option',
      );
    }
  });
});
