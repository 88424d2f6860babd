import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MISSION_PART_MAX } from "../../../src/services/summon/persona-instructions.js";
import { initialized, type Repo } from "./fixture.js";
import { ASSISTANTS, missions, requireBundle, standIns, type StandInRecord } from "./stand-ins.js";

/**
 * Issue 13, point 5 (DESIGN §5): the persona brief is bounded (its mission part at most 1,500
 * characters for any project) and never passes the OS argument limit. Before, with large records
 * the argv of codex, gemini and opencode passed 128 KiB and they failed to start (`spawn E2BIG`).
 */

const BIG = 20_000;
const big = (tag: string) => `${tag} ${"lorem ipsum dolor sit amet ".repeat(BIG / 27 + 1)}`.slice(0, BIG);

/** The persona text an assistant was given, wherever its adapter puts it. */
function personaOf(rec: StandInRecord): string {
  if (rec.name === "claude") return rec.personaFileContent ?? "";
  if (rec.name === "codex") {
    const dev = rec.argv.find((a) => a.startsWith("--config=developer_instructions="))!;
    return JSON.parse(dev.slice("--config=developer_instructions=".length)) as string;
  }
  const file = Object.keys(rec.files).find((f) => f.endsWith(".md"));
  return (file && rec.files[file]) ?? "";
}

function missionPartOf(text: string): string {
  const at = text.indexOf("## This mission");
  expect(at, "the brief has its mission part").toBeGreaterThan(0);
  return text.slice(at);
}

/**
 * A project with 50 READY handoffs of engineer tasks, every text at its 20,000-character maximum;
 * the one a summon holds has 50 open acceptance criteria of 500 characters.
 */
async function bigProject(): Promise<{ p: Repo; held: string }> {
  const p = await initialized();
  const tasks = Array.from({ length: 51 }, (_, i) => ({
    title: `${"Task ".repeat(39)}${i}`.slice(0, 200),
    role: "engineer",
    description: big(`description ${i}`),
    ...(i === 50 && { acceptance: Array.from({ length: 50 }, (_, k) => big(`criterion ${k}`).slice(0, 500)) }),
  }));
  const file = join(p.dir, "..", `import-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(tasks));
  await p.ok(["task", "import", file]);
  await p.ok(["mission", "start", "--role", "engineer", "--persona", "Daedalus"]);
  for (let n = 1; n <= 50; n++) {
    await p.ok(["--as", "Daedalus", "task", "claim", String(n)]);
    await p.ok(["--as", "Daedalus", "task", "note", String(n), big(`note ${n}`)]);
    await p.ok(["--as", "Daedalus", "task", "handoff", String(n), "--notes", big(`handoff ${n}`)]);
  }
  await p.ok(["mission", "end", "MSN-0001"]);
  return { p, held: "51" };
}

describe("the persona brief is bounded", () => {
  beforeAll(requireBundle);

  it("50 handoffs and 20,000-character records: every assistant starts, and the mission part stays at most 1,500 characters", {
    timeout: 180_000,
  }, async () => {
    const { p, held } = await bigProject();
    const s = standIns();
    for (const a of ASSISTANTS) {
      const task = a === "claude" ? ["--task", held] : [];
      const r = await p.run(
        ["summon", "engineer", "--assistant", a, "--objective", big("objective"), ...task],
        s.env(),
      );
      expect(r.exitCode, `${a}: ${r.stderr}`).toBe(0);
      const text = personaOf(s.one(a));
      const part = missionPartOf(text);
      expect(part.length, `${a}: mission part\n${part}`).toBeLessThanOrEqual(MISSION_PART_MAX);
      expect(part).toContain("Handed off to your role and waiting: 50");
      expect(part).toContain("pantheon task list --status READY --role engineer");
      expect(part.match(/lorem/g)?.length ?? 0, `${a}: record text is clipped`).toBeLessThanOrEqual(12);
      if (a === "claude") expect(part).toContain("You hold ENG-M-0051");
      if (a === "claude") expect(part).toContain("Its acceptance criteria not yet met: 50");
      // the role template (at most 4,000) plus the mission part
      expect(text.length, a).toBeLessThanOrEqual(4_000 + MISSION_PART_MAX);
    }
    expect((await missions(p.dir)).filter((m) => m.status === "ACTIVE")).toEqual([]);
  });

  it("a user's template far past the argument limit is passed whole with a warning, and no assistant fails to start", async () => {
    const p = await initialized();
    const s = standIns();
    const huge = `# {{persona}}, the huge engineer\n\n${"Rule: keep it simple. ".repeat(10_000)}\n`;
    expect(huge.length).toBeGreaterThan(200 * 1024);
    writeFileSync(join(p.dir, ".pantheon", "personas", "engineer-huge.md"), huge);
    for (const a of ASSISTANTS) {
      const r = await p.run(["summon", "engineer", "--assistant", a, "--template", "huge"], s.env());
      expect(r.exitCode, `${a}: ${r.stderr}`).toBe(0);
      expect(r.stderr, a).toMatch(
        /engineer-huge\.md is [\d,]+ characters \(shipped persona templates stay under 4,000\); it is passed whole/,
      );
      const rec = s.one(a);
      for (const arg of rec.argv) expect(Buffer.byteLength(arg), `${a}: one argument`).toBeLessThan(128 * 1024);
      if (a === "codex") {
        const dev = rec.argv.find((x) => x.startsWith("--config=developer_instructions="))!;
        expect(dev, "codex reads a persona this long from its file").toMatch(
          /persona instructions are in \/.*persona\.md/,
        );
      } else {
        expect(personaOf(rec)).toContain("Rule: keep it simple. ".repeat(9_999));
      }
    }
  });

  it("the shipped template is passed without a warning", async () => {
    const p = await initialized();
    const s = standIns();
    const r = await p.run(["summon", "engineer", "--assistant", "claude"], s.env());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/characters/);
    expect(readFileSync(join(p.dir, ".pantheon", "personas", "engineer.md"), "utf8").length).toBeLessThanOrEqual(4_000);
  });
});
