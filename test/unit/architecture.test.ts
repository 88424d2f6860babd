import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(__dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every import specifier of a file (static, dynamic and type imports). */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return [...new Set(found)];
}

function layerOf(file: string): string {
  return relative(SRC, file).split("/")[0]!.replace(/\.(ts|js)$/, "");
}

const ALL = files(SRC).map((f) => ({ file: relative(SRC, f), layer: layerOf(f), imports: imports(f) }));

/** DESIGN §6: imports point down. cli → services → domain; store → domain; render → domain. */
const MAY_IMPORT: Record<string, string[]> = {
  domain: ["domain", "errors"],
  render: ["render", "domain", "errors"],
  store: ["store", "domain", "errors", "lazy-require", "random-bytes"],
  services: ["services", "domain", "errors", "store", "assistants", "lazy-require"],
  assistants: ["assistants", "domain", "errors"],
  cli: ["cli", "api", "mcp", "services", "render", "domain", "store", "errors", "assistants", "lazy-require", "random-bytes"],
  // pantheon/api: wiring like the CLI's (a concrete store per call), then services and views.
  api: ["api", "services", "render", "domain", "store", "errors", "lazy-require", "random-bytes"],
  // The MCP server is another face of the API: it sees nothing below it.
  mcp: ["mcp", "api", "domain", "errors"],
  errors: ["errors"],
  "lazy-require": [],
  "random-bytes": ["lazy-require"],
};

describe("architecture", () => {
  it("has source files in every layer it checks", () => {
    expect(new Set(ALL.map((f) => f.layer))).toEqual(new Set(["cli", "api", "mcp", "services", "domain", "store", "render", "errors", "assistants", "lazy-require", "random-bytes"]));
  });

  it.each(ALL)("$file imports only from the layers below it", ({ file, layer, imports: specs }) => {
    for (const spec of specs.filter((s) => s.startsWith("."))) {
      const target = layerOf(join(SRC, file, "..", spec));
      expect(MAY_IMPORT[layer], `${file} imports ${spec}`).toContain(target);
    }
  });

  it("services use the store only through its interface (store/store.ts)", () => {
    for (const f of ALL.filter((x) => x.layer === "services")) {
      for (const spec of f.imports.filter((s) => s.includes("/store/"))) expect(spec, f.file).toMatch(/\/store\/store\.js$/);
    }
  });

  it("the domain is pure: zod and itself only, no Node built-ins", () => {
    for (const f of ALL.filter((x) => x.layer === "domain")) {
      for (const spec of f.imports.filter((s) => !s.startsWith("."))) expect(spec, f.file).toMatch(/^zod(\/mini)?$/);
    }
  });

  it("only store/ imports isomorphic-git; only cli/ imports commander, @inquirer and picocolors", () => {
    for (const f of ALL) {
      for (const spec of f.imports) {
        if (spec.startsWith("isomorphic-git")) expect(f.layer, f.file).toBe("store");
        if (/^(commander|@inquirer\/|picocolors)/.test(spec)) expect(f.layer, f.file).toBe("cli");
        if (spec.startsWith("@modelcontextprotocol/")) expect(f.layer, f.file).toBe("mcp");
      }
    }
  });

  it("the API (pantheon/api) never imports the CLI, commander, @inquirer or picocolors", () => {
    // What a user imports as "pantheon/api": never the CLI's modules.
    for (const f of ALL.filter((x) => x.layer === "api")) {
      for (const spec of f.imports) expect(spec, f.file).not.toMatch(/(^|\/)cli\/|^(commander|@inquirer|picocolors)/);
    }
  });

  it("the MCP server (and its SDK) is reached only by a dynamic import", () => {
    for (const f of ALL.filter((x) => x.layer !== "mcp")) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      expect(text, f.file).not.toMatch(/^import(?!\s+type)[^;]*from\s+["'][^"']*\/mcp\/[^"']*["']/m);
    }
  });

  it("every error class lives in the catalogue (src/errors.ts and src/errors/)", () => {
    for (const f of ALL.filter((x) => x.layer !== "errors")) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      expect(text, f.file).not.toMatch(/class\s+\w+\s+extends\s+(\w*Error|PantheonError|QuietExit)\b/);
    }
  });

  it("heavy modules are loaded lazily (dynamic import only)", () => {
    for (const f of ALL) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      expect(text, f.file).not.toMatch(/^import(?!\s+type)[^;]*from\s+["'](isomorphic-git|yaml|@inquirer\/prompts)["']/m);
    }
  });
});
