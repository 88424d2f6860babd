import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exitCodeFor } from "../../src/cli/exit-code.js";
import {
  AssistantExit,
  CancelledError,
  ERROR_EXIT_CODES,
  GitError,
  OutputClosed,
  PantheonError,
  UsageError,
  WatchEnded,
} from "../../src/errors.js";

const ROOT = join(__dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The rows of the table under a `## heading` of docs/errors.md: first cell (the code) → the other cells. */
function table(doc: string, heading: string): Map<string, string[]> {
  const section = doc.split(/^## /m).find((s) => s.startsWith(heading));
  if (!section) throw new Error(`docs/errors.md has no "## ${heading}"`);
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const m = /^\| `([A-Z0-9_]+)` \|(.*)\|\s*$/.exec(line);
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split("|").map((c) => c.trim()),
      );
  }
  return rows;
}

const DOC = readFileSync(join(ROOT, "docs/errors.md"), "utf8");
const ERRORS = table(DOC, "Error codes");
const FINDINGS = table(DOC, "Doctor findings");
const WEB = table(DOC, "Web dashboard responses");

/** Every string literal in src that reads as a code ("E_...", "W_..." or "I_..."). */
const SOURCE_CODES = new Set(
  files(join(ROOT, "src")).flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(/["'`]([EWI]_[A-Z0-9]+(?:_[A-Z0-9]+)*)["'`]/g)].map((m) => m[1]!),
  ),
);

describe("the error catalogue and docs/errors.md", () => {
  it("documents every code of the catalogue with its exit code", () => {
    for (const [code, exit] of Object.entries(ERROR_EXIT_CODES)) {
      expect(ERRORS.get(code), `${code} is not in docs/errors.md`).toBeDefined();
      expect(ERRORS.get(code)![0], `${code}'s exit code in docs/errors.md`).toBe(String(exit));
    }
  });

  it("documents no error code the catalogue does not have", () => {
    for (const code of ERRORS.keys())
      expect(Object.keys(ERROR_EXIT_CODES), `docs/errors.md lists ${code}`).toContain(code);
  });

  it("every code written in src is in the catalogue or is a documented doctor finding", () => {
    for (const code of SOURCE_CODES) {
      const known = code in ERROR_EXIT_CODES || FINDINGS.has(code) || WEB.has(code);
      expect(
        known,
        `${code} is used in src but is neither in errors/error-codes.ts nor under "Doctor findings" or "Web dashboard responses" in docs/errors.md`,
      ).toBe(true);
    }
  });

  it("every documented doctor finding and web response is raised somewhere in src", () => {
    for (const code of [...FINDINGS.keys(), ...WEB.keys()])
      expect(SOURCE_CODES.has(code), `docs/errors.md lists the finding ${code}, which src never reports`).toBe(true);
  });

  it("no code is the bare E_GIT any more", () => {
    expect(SOURCE_CODES.has("E_GIT")).toBe(false);
    for (const code of Object.keys(ERROR_EXIT_CODES).filter((c) => c.startsWith("E_GIT")))
      expect(code).toMatch(/^E_GIT_[A-Z_]+$/);
  });
});

describe("exitCodeFor", () => {
  it("takes an error's exit code from the catalogue, by its code", () => {
    for (const [code, exit] of Object.entries(ERROR_EXIT_CODES)) {
      expect(exitCodeFor(new PantheonError(code as keyof typeof ERROR_EXIT_CODES, "m"))).toBe(exit);
    }
    expect(exitCodeFor(new UsageError("bad", "pantheon --help"))).toBe(2);
    expect(exitCodeFor(new GitError("E_GIT_REF_UPDATE", "m"))).toBe(1);
    expect(exitCodeFor(new CancelledError())).toBe(130);
  });

  it("recognises the quiet exits by type, not by name", () => {
    expect(exitCodeFor(new WatchEnded())).toBe(0);
    expect(exitCodeFor(new OutputClosed("stdout was closed by its reader"))).toBe(0);
    expect(exitCodeFor(new AssistantExit(7))).toBe(7);
    // An unrelated error that merely bears one of their names is a failure like any other.
    const impostor = Object.assign(new Error("x"), { name: "WatchEnded" });
    expect(exitCodeFor(impostor)).toBe(1);
    expect(exitCodeFor(Object.assign(new Error("x"), { name: "AssistantExit", code: 0 }))).toBe(1);
  });

  it("maps commander's errors to 2, help and version to 0, anything else to 1", () => {
    expect(exitCodeFor(Object.assign(new Error("x"), { code: "commander.unknownOption", exitCode: 1 }))).toBe(2);
    expect(exitCodeFor(Object.assign(new Error("x"), { code: "commander.helpDisplayed", exitCode: 0 }))).toBe(0);
    expect(exitCodeFor(new TypeError("boom"))).toBe(1);
  });
});
