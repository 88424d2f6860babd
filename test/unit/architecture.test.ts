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

const EVERY = files(SRC).map((f) => ({ file: relative(SRC, f), layer: layerOf(f), imports: imports(f) }));
/** The browser app is not Node code: its own rules below. */
const CLIENT = EVERY.filter((f) => f.file.startsWith("web/client/"));
const ALL = EVERY.filter((f) => !f.file.startsWith("web/client/"));

/** DESIGN §6: imports point down. cli → services → domain; store → domain; render → domain. */
const MAY_IMPORT: Record<string, string[]> = {
  domain: ["domain", "errors"],
  render: ["render", "domain", "errors"],
  store: ["store", "domain", "errors", "lazy-require", "random-bytes"],
  services: ["services", "domain", "errors", "store", "assistants", "lazy-require"],
  assistants: ["assistants", "domain", "errors"],
  cli: ["cli", "api", "mcp", "web", "services", "render", "domain", "store", "errors", "assistants", "lazy-require", "random-bytes"],
  // pantheon/api: wiring like the CLI's (a concrete store per call), then services and views.
  api: ["api", "services", "render", "domain", "store", "errors", "lazy-require", "random-bytes"],
  // The MCP server is another face of the API: it sees nothing below it.
  mcp: ["mcp", "api", "domain", "errors"],
  // pantheon web: another front end; its browser app (web/client) is checked on its own below.
  web: ["web", "api", "services", "render", "domain", "errors", "random-bytes", "lazy-require"],
  errors: [],
  "lazy-require": [],
  "random-bytes": ["lazy-require"],
};

describe("architecture", () => {
  it("has source files in every layer it checks", () => {
    expect(new Set(ALL.map((f) => f.layer))).toEqual(new Set(["cli", "api", "mcp", "web", "services", "domain", "store", "render", "errors", "assistants", "lazy-require", "random-bytes"]));
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

  it("heavy modules are loaded lazily (dynamic import only)", () => {
    for (const f of ALL) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      expect(text, f.file).not.toMatch(/^import(?!\s+type)[^;]*from\s+["'](isomorphic-git|yaml|@inquirer\/prompts)["']/m);
    }
  });

  it("the browser app (web/client) imports only itself and @dagrejs/dagre; the server's view types as types only", () => {
    expect(CLIENT.length).toBeGreaterThan(0);
    for (const f of CLIENT) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      for (const spec of f.imports) {
        if (spec.startsWith("./")) continue;
        if (spec === "@dagrejs/dagre") continue;
        // Anything else only as `export type`/`import type`: erased, so nothing of the server reaches the page.
        expect(text, `${f.file} imports ${spec}`).toMatch(new RegExp(`(import|export) type \\{[^}]*\\} from "${spec.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}"`));
      }
    }
  });

  it("the browser app never writes HTML from strings (no innerHTML, outerHTML, insertAdjacentHTML, document.write)", () => {
    for (const f of CLIENT) expect(readFileSync(join(SRC, f.file), "utf8"), f.file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("the web server is reached only by a dynamic import from cli/commands/web.ts", () => {
    for (const f of ALL.filter((x) => x.layer !== "web")) {
      const text = readFileSync(join(SRC, f.file), "utf8");
      expect(text, f.file).not.toMatch(/^import(?!\s+type)[^;]*from\s+["'][^"']*\/web\/[^"']*["']/m);
      if (f.imports.some((s) => /(^|\/)web\//.test(s))) expect(f.file).toBe("cli/commands/web.ts");
    }
  });
});
