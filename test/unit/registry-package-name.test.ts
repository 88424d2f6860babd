/**
 * The npm registry's package called `pantheon` is someone else's (README): no message, generated
 * file or page may tell anyone to install or run it. Pantheon is installed from its own clone
 * (`npm ci && npm install -g .`); `npx --no-install pantheon` runs a project's own copy only.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** `npm install -g pantheon`, `npm i pantheon@latest`, `npm install --save-dev pantheon`, `pnpm add pantheon`... */
const INSTALLS =
  /\b(?:npm\s+(?:install|i|add|exec)|pnpm\s+(?:add|install|dlx)|yarn\s+(?:global\s+)?(?:add|dlx)|bunx|bun\s+add)(?:\s+-{1,2}[\w-]+(?:=\S+)?)*\s+pantheon(?:@[\w.^~-]*)?(?![\w./-])/;
/** `npx pantheon` fetches the registry's package wherever no local one is found. */
const NPX = /\bnpx(?:\s+(?!--no-install\b)-{1,2}[\w-]+)*\s+pantheon\b/;

function offending(paths: string[], pattern: RegExp): string[] {
  return paths.flatMap((p) =>
    readFileSync(p, "utf8")
      .split("\n")
      .map((line, i) => ({ line, at: `${relative(ROOT, p)}:${i + 1}` }))
      // The README's own warning names the command not to run.
      .filter(({ line }) => pattern.test(line) && !/\bdo not `npm install -g pantheon`/.test(line))
      .map(({ line, at }) => `${at}: ${line.trim()}`),
  );
}

const SOURCES = [...files(join(ROOT, "src")), ...files(join(ROOT, "templates"))];
const PAGES = [...files(join(ROOT, "docs")).filter((p) => p.endsWith(".md")), join(ROOT, "README.md")];

describe("the registry's `pantheon` package is never named as this one", () => {
  it("no message, template or page says to install it", () => {
    expect(offending([...SOURCES, ...PAGES], INSTALLS)).toEqual([]);
  });

  it("no message or generated file runs it through npx (only `npx --no-install pantheon`, a project's own)", () => {
    expect(offending(SOURCES, NPX)).toEqual([]);
  });

  it("the patterns find what they are for", () => {
    for (const bad of [
      "install it with npm install -g pantheon",
      "upgrade pantheon (npm install -g pantheon@latest)",
      "(`npm install --save-dev pantheon`)",
      "pnpm add pantheon",
    ])
      expect(INSTALLS.test(bad), bad).toBe(true);
    for (const good of ["npm install -g .", "npm install --save-dev /path/to/pantheon", "npm install -g @openai/codex"])
      expect(INSTALLS.test(good), good).toBe(false);
    expect(NPX.test("npx pantheon mcp")).toBe(true);
    expect(NPX.test("npx -y pantheon mcp")).toBe(true);
    expect(NPX.test("npx --no-install pantheon mcp")).toBe(false);
  });
});
