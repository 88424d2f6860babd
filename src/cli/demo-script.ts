import { rmSync } from "node:fs";
import { addOriginAndClone, createScratchRepository, stateLogGraph } from "../store/code/scratch-repo.js";
import type { App } from "./app.js";
import type { IO } from "./io.js";

interface Step {
  say: string;
  argv: string[];
  /** Which clone runs it: the Director's (default) or the laptop of the second part. */
  on?: "laptop";
  /** Expected to be refused: the demo shows the guard at work. */
  refused?: boolean;
}

const ZEUS = ["--as", "Zeus"];
const ATHENA = ["--as", "Athena"];
const HEPH = ["--as", "Hephaestus"];
const DAEDALUS = ["--as", "Daedalus"];
const ARTEMIS = ["--as", "Artemis"];
const ARGUS = ["--as", "Argus"];

/** The story: the seed's coordination patterns, each step a real command line. */
const STEPS: Step[] = [
  { say: "The Director sets up Pantheon in a fresh repository.", argv: ["init", "--yes"] },
  {
    say: "Six personas start their missions (in real life: pantheon summon <role>).",
    argv: ["mission", "start", "--role", "administrator", "--persona", "Zeus", "--objective", "ship user login"],
  },
  { say: "", argv: ["mission", "start", "--role", "architect", "--persona", "Athena"] },
  { say: "", argv: ["mission", "start", "--role", "engineer", "--persona", "Hephaestus"] },
  { say: "", argv: ["mission", "start", "--role", "engineer", "--persona", "Daedalus"] },
  { say: "", argv: ["mission", "start", "--role", "tester", "--persona", "Artemis"] },
  { say: "", argv: ["mission", "start", "--role", "inspector", "--persona", "Argus"] },
  {
    say: "Zeus, the administrator, plans an epic with dependent tasks.",
    argv: [...ZEUS, "epic", "create", "--title", "User login", "--priority", "high"],
  },
  {
    say: "",
    argv: [
      ...ZEUS,
      "task",
      "create",
      "--title",
      "Design the login flow",
      "--role",
      "architect",
      "--priority",
      "high",
      "--epic",
      "EPC-H-0001",
    ],
  },
  {
    say: "",
    argv: [
      ...ZEUS,
      "task",
      "create",
      "--title",
      "Implement login",
      "--role",
      "engineer",
      "--priority",
      "high",
      "--depends-on",
      "ARC-H-0001",
      "--epic",
      "EPC-H-0001",
    ],
  },
  {
    say: "",
    argv: [
      ...ZEUS,
      "task",
      "create",
      "--title",
      "Test login",
      "--role",
      "tester",
      "--depends-on",
      "ENG-H-0002",
      "--epic",
      "EPC-H-0001",
    ],
  },
  {
    say: "",
    argv: [
      ...ZEUS,
      "task",
      "create",
      "--title",
      "Rate-limit login attempts",
      "--role",
      "engineer",
      "--priority",
      "low",
    ],
  },
  {
    say: "Hephaestus is eager, but the design is not done: the claim guard refuses.",
    argv: [...HEPH, "task", "claim", "ENG-H-0002"],
    refused: true,
  },
  {
    say: "Athena designs and hands the implementation over with notes (architect → engineer).",
    argv: [...ATHENA, "task", "claim", "ARC-H-0001"],
  },
  {
    say: "",
    argv: [...ATHENA, "task", "close", "ARC-H-0001", "--notes", "ADR-001: sessions with rotating refresh tokens"],
  },
  {
    say: "",
    argv: [...ATHENA, "task", "handoff", "ENG-H-0002", "--notes", "Follow ADR-001; start with the token store"],
  },
  {
    say: "What should an engineer do next? Pantheon answers with reasons.",
    argv: ["task", "next", "--role", "engineer"],
  },
  {
    say: "Hephaestus claims the login; Daedalus takes the rate limiter.",
    argv: [...HEPH, "task", "claim", "ENG-H-0002"],
  },
  { say: "", argv: [...DAEDALUS, "task", "claim", "ENG-L-0004"] },
  { say: "Two personas cannot hold one task.", argv: [...DAEDALUS, "task", "claim", "ENG-H-0002"], refused: true },
  {
    say: "Daedalus is stuck; Zeus reassigns the task (administrator orchestration).",
    argv: [...DAEDALUS, "task", "update", "ENG-L-0004", "--status", "BLOCKED", "--notes", "needs a Redis instance"],
  },
  { say: "", argv: [...ZEUS, "task", "unassign", "ENG-L-0004", "--notes", "no Redis this sprint; back to the pool"] },
  {
    say: "The implementation goes to review (a review is requested), and the tester starts (engineer → tester).",
    argv: [...HEPH, "task", "update", "ENG-H-0002", "--status", "REVIEW", "--notes", "ready for testing"],
  },
  { say: "", argv: [...ARTEMIS, "task", "claim", "TST-M-0003"] },
  { say: "", argv: ["epic", "show", "EPC-H-0001"] },
  {
    say: "Argus inspects and approves: the task completes in the same commit (engineer → inspector).",
    argv: [...ARGUS, "review", "approve", "RVW-001", "--notes", "token rotation verified"],
  },
  { say: "", argv: [...ARTEMIS, "task", "close", "TST-M-0003", "--notes", "12 cases, all green"] },
  {
    say: "Athena's work is done; she ends her mission.",
    argv: [...ATHENA, "mission", "end", "--summary", "login design delivered"],
  },
  { say: "Questions personas ask: completion, who did what.", argv: ["task", "report"] },
  { say: "", argv: ["persona", "activity"] },
  { say: "The Director's dashboard:", argv: ["dashboard"] },
  { say: "Part two: a second clone (a laptop) shares the state through a bare remote.", argv: ["sync"] },
  { say: "", argv: ["sync"], on: "laptop" },
  {
    say: "Both work offline (a claim or a mission start online would publish at once): each creates task number 5 without knowing of the other.",
    argv: ["task", "create", "--title", "Audit the token store", "--role", "inspector", "--priority", "high"],
  },
  { say: "", argv: ["task", "create", "--title", "Document the login API", "--role", "documentarian"], on: "laptop" },
  {
    say: "",
    argv: ["task", "create", "--title", "Review the docs", "--role", "inspector", "--depends-on", "5"],
    on: "laptop",
  },
  { say: "", argv: ["--offline", "--as", "Daedalus", "task", "claim", "ENG-L-0004"] },
  { say: "", argv: ["--offline", "mission", "start", "--role", "engineer", "--persona", "Vulcan"], on: "laptop" },
  { say: "", argv: ["--offline", "--as", "Vulcan", "task", "claim", "ENG-L-0004"], on: "laptop" },
  {
    say: "The Director publishes first; the laptop's sync merges: its task 5 moves to the next free number (its dependent follows), and its claim yields to the one already published.",
    argv: ["sync"],
  },
  { say: "", argv: ["sync"], on: "laptop" },
  { say: "", argv: ["sync"] },
  { say: "Both clones now hold the same state:", argv: ["task", "list"], on: "laptop" },
];

export interface DemoResult {
  dir: string;
  steps: Step[];
  transcript: string;
  kept: boolean;
}

/** Runs the story through main(), the same code path as a user's commands, and captures it. */
export async function runDemo(app: App, keep: boolean): Promise<DemoResult> {
  const { main } = await import("./main.js");
  const dir = createScratchRepository();
  let laptop: string | null = null;
  const out: string[] = [];
  const style = app.style();
  const p = style.paint;
  try {
    for (const step of STEPS) {
      if (step.on === "laptop" || step.argv[0] === "sync") laptop ??= addOriginAndClone(dir);
      if (step.say) out.push("", p.bold(step.say));
      out.push(p.dim(`${step.on === "laptop" ? "laptop" : ""}$ pantheon ${step.argv.map(quote).join(" ")}`));
      const io = captureIO(app.io, step.on === "laptop" ? laptop! : dir);
      const code = await main(["--no-color", ...step.argv], io.io);
      const text = (io.stdout() + io.stderr()).trimEnd();
      out.push(
        text
          .split("\n")
          .map((l) => `  ${l}`)
          .join("\n"),
      );
      if ((code !== 0) !== Boolean(step.refused))
        throw new Error(`demo step failed (exit ${code}): pantheon ${step.argv.join(" ")}\n${text}`);
    }
    out.push("", p.bold("The audit trail: git log --graph refs/coordination/main"), stateLogGraph(dir).trimEnd());
    out.push(
      "",
      keep
        ? `Repositories kept at ${dir} (and ${dir}-laptop, ${dir}-origin.git)\nSee them live in a browser: pantheon -C ${dir} web --open`
        : p.dim("(the temporary repositories were removed; --keep keeps them, and pantheon -C <dir> web shows them)"),
    );
    return { dir, steps: STEPS, transcript: out.join("\n").trimStart(), kept: keep };
  } finally {
    if (!keep) for (const d of [dir, `${dir}-origin.git`, `${dir}-laptop`]) rmSync(d, { recursive: true, force: true });
  }
}

function captureIO(parent: IO, cwd: string): { io: IO; stdout: () => string; stderr: () => string } {
  let o = "";
  let e = "";
  return {
    io: {
      stdout: {
        write: (s) => void (o += s),
        isTTY: parent.stdout.isTTY ?? false,
        columns: Math.max(60, (parent.stdout.columns ?? 100) - 2),
      },
      stderr: { write: (s) => void (e += s), isTTY: false },
      stdinIsTTY: false,
      env: { ...parent.env, PANTHEON_MISSION: "", PANTHEON_PERSONA: "" },
      cwd,
    },
    stdout: () => o,
    stderr: () => e,
  };
}

function quote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `"${a.replace(/(["\\$`])/g, "\\$1")}"`;
}
