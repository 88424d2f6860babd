import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSource, isClient, layerOf, MAY_IMPORT } from "../helpers/architecture-rules.js";

const SRC = join(__dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const ALL = files(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, "utf8") }));

// The rules themselves, and a violation of each caught, are in architecture-rules.test.ts.
describe("architecture", () => {
  it("has source files in every layer it checks, and checks every layer it has", () => {
    expect(new Set(ALL.map((f) => layerOf(f.file)))).toEqual(new Set(Object.keys(MAY_IMPORT)));
    expect(ALL.filter((f) => isClient(f.file)).length, "the browser app (web/client)").toBeGreaterThan(0);
  });

  it.each(ALL)("$file keeps the layer rules", ({ file, text }) => {
    expect(checkSource(file, text)).toEqual([]);
  });
});
