/**
 * The layer rules of DESIGN §6 as a checker over one source file's text, so that a test can feed
 * it the real tree (test/unit/architecture.test.ts) or a synthetic file that breaks one rule
 * (test/unit/architecture-rules.test.ts, which shows each rule catching its violation).
 */
import { posix } from "node:path";
import { checkServiceRooms } from "./service-rooms.js";

export interface ImportRef {
  spec: string;
  /** static `import ... from`, `export ... from`, a side-effect `import "x"`, or a dynamic `import("x")`. */
  form: "import" | "export" | "side-effect" | "dynamic";
  /** `import type` / `export type`, or every name marked `type`: erased at build time. */
  typeOnly: boolean;
}

/** The text with comments blanked out (strings kept), so commented code and prose are not read as imports. */
export function stripComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const STRING = /^(["'])([^"'`]*)\1$/;

/** The text with the insides of strings blanked (same length), to find code that only looks like code outside them. */
function blankStrings(text: string): string {
  return text.replace(
    /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g,
    (_m, q: string, body: string) => q + " ".repeat(body.length) + q,
  );
}

/** Every import of a file; `nonLiteral` holds the dynamic imports whose module is not a plain string (no checker can see where they lead). */
export function parseImports(text: string): { refs: ImportRef[]; nonLiteral: string[] } {
  const src = stripComments(text);
  const refs: ImportRef[] = [];
  const nonLiteral: string[] = [];
  for (const m of src.matchAll(/(?:^|[;}\n])\s*(import|export)\s+(type\s+)?([^;]*?)\bfrom\s*(["'])([^"']+)\4/g)) {
    const names = m[3]!;
    const braces = /\{([^}]*)\}/.exec(names);
    const allTyped =
      braces !== null &&
      !/^[\s,]*$/.test(braces[1]!) &&
      braces[1]!.split(",").every((n) => /^\s*(type\s+\S|$)/.test(n)) &&
      !/^\s*[\w$]+\s*,/.test(names) &&
      !names.includes("*");
    refs.push({ spec: m[5]!, form: m[1] as "import" | "export", typeOnly: Boolean(m[2]) || allTyped });
  }
  for (const m of src.matchAll(/(?:^|[;}\n])\s*import\s*(["'])([^"']+)\1/g))
    refs.push({ spec: m[2]!, form: "side-effect", typeOnly: false });
  const bare = blankStrings(src);
  for (const m of bare.matchAll(/(^|[^.\w$])import\s*\(/g)) {
    const before = src.slice(0, m.index! + m[1]!.length).trimEnd();
    if (/\b(async|get|set|static|function)$/.test(before)) continue; // a method named import
    const open = m.index! + m[0].length;
    let depth = 1;
    let j = open;
    while (j < src.length && depth > 0) {
      if (src[j] === "(") depth++;
      else if (src[j] === ")") depth--;
      j++;
    }
    if (/^\s*[{:]/.test(src.slice(j))) continue; // `import(file: string): ...` or `import(a) {`: a declaration
    const arg = src
      .slice(open, j - 1)
      .split(",")[0]!
      .trim();
    const lit = STRING.exec(arg);
    if (lit) refs.push({ spec: lit[2]!, form: "dynamic", typeOnly: /\btypeof\s*$/.test(before) });
    else nonLiteral.push(arg);
  }
  return { refs, nonLiteral };
}

/** The layer of a path under src/ ("cli/commands/task.ts" → "cli", "errors.ts" → "errors"). */
export function layerOf(rel: string): string {
  return rel.split("/")[0]!.replace(/\.(ts|js)$/, "");
}

/** DESIGN §6: imports point down. cli → services → domain; store → domain; render → domain. */
export const MAY_IMPORT: Record<string, string[]> = {
  domain: ["domain", "errors"],
  render: ["render", "domain", "errors"],
  store: ["store", "domain", "errors", "lazy-require", "random-bytes", "is-terminal"],
  services: ["services", "domain", "errors", "store", "assistants", "lazy-require"],
  assistants: ["assistants", "domain", "errors"],
  cli: [
    "cli",
    "api",
    "mcp",
    "web",
    "services",
    "render",
    "domain",
    "store",
    "errors",
    "assistants",
    "lazy-require",
    "random-bytes",
    "is-terminal",
  ],
  // pantheon/api: wiring like the CLI's (a concrete store per call), then services and views.
  api: ["api", "services", "render", "domain", "store", "errors", "lazy-require", "random-bytes"],
  // The MCP server is another face of the API: it sees nothing below it.
  mcp: ["mcp", "api", "domain", "errors"],
  // pantheon web: another front end; its browser app (web/client) is checked by checkClient.
  web: ["web", "api", "services", "render", "domain", "errors", "random-bytes", "lazy-require"],
  errors: ["errors"],
  "lazy-require": [],
  "random-bytes": ["lazy-require"],
  "is-terminal": [],
};

/** The only files outside store/ that may name a concrete store: they wire one per command line or API call. */
export const COMPOSITION_ROOTS: ReadonlySet<string> = new Set(["cli/open-store.ts", "api/api-context.ts"]);
/** The port: what services see of the store; each client's part of it is a file of store/port/. */
export const PORT = "store/store.ts";
const isPort = (path: string): boolean => path.replace(/\.js$/, ".ts") === PORT || /^store\/port\/[^/]+$/.test(path);
const IMPLEMENTATION = /(^|\/)store\/(git-store|memory-store)(\.js)?$/;

/**
 * The store's rooms, lowest first: a room imports only the port and the rooms below it (git's
 * formats; the records on the ref; the read cache; the repository around them; sync; the user's
 * code). The top of src/store holds only the port and the two stores that implement it.
 */
export const STORE_ROOMS = ["git", "state", "cache", "repo", "sync", "code"] as const;
export const STORE_TOP: ReadonlySet<string> = new Set([
  "store/store.ts",
  "store/git-store.ts",
  "store/memory-store.ts",
]);

/** The room of a path under src/ inside store/ ("store/cache/read-cache.ts" → "cache"), "top" for the files at its top. */
function roomOf(rel: string): string | null {
  const parts = rel.split("/");
  if (parts[0] !== "store") return null;
  return parts.length > 2 ? parts[1]! : "top";
}
/**
 * Outside store/, the one file that reads git's formats itself: shell completion's fast path
 * (`pantheon __complete`) reads the ref with no store, no zod and no commander (performance.md).
 */
export const GIT_READERS: ReadonlySet<string> = new Set(["cli/complete-fast.ts"]);
/** What a pure layer never touches: the process, the clock, randomness, a module loaded behind the checker's back. */
const IMPURE: ReadonlyArray<[RegExp, string]> = [
  [/(^|[^.\w$])process\s*[.[]/, "reads process"],
  [/(^|[^.\w$])globalThis\b/, "reads globalThis"],
  [/(^|[^.\w$])require\s*\(/, "calls require()"],
  [/\bDate\.now\s*\(|\bnew\s+Date\s*\(\s*\)/, "reads the clock"],
  [/\bMath\.random\s*\(/, "draws a random number"],
  [/(^|[^.\w$])performance\s*\./, "reads the clock"],
];
const HEAVY = /^(isomorphic-git|yaml|@inquirer\/)/;
/**
 * The object engine's one module (DESIGN §2.2): it alone imports isomorphic-git, statically (the
 * build bundles the functions it names, tree-shaken), and is itself reached only by a dynamic import.
 */
const ENGINE = "store/git/object-engine.ts";

/** The browser app is not Node code: checkClient's rules, not the layers'. */
export const isClient = (rel: string): boolean => rel.startsWith("web/client/");

/**
 * The browser app (web/client) imports only itself and @dagrejs/dagre, anything else of the
 * server as types only (erased: nothing of the server reaches the page), and never writes HTML
 * from strings.
 */
export function checkClient(rel: string, text: string): string[] {
  const out: string[] = [];
  for (const { spec, typeOnly } of parseImports(text).refs) {
    if (spec.startsWith("./") || spec === "@dagrejs/dagre" || typeOnly) continue;
    out.push(
      `${rel}: imports ${spec}; the browser app imports only itself and @dagrejs/dagre, and the server's types as types only`,
    );
  }
  if (/innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(stripComments(text)))
    out.push(`${rel}: writes HTML from a string; the browser app builds DOM nodes`);
  return out;
}

/** Every rule the file breaks, one line each ([] when it keeps them all). `rel` is its path under src/. */
export function checkSource(rel: string, text: string): string[] {
  if (isClient(rel)) return checkClient(rel, text);
  const out: string[] = [];
  const layer = layerOf(rel);
  const { refs, nonLiteral } = parseImports(text);
  const code = stripComments(text);
  // The services' rooms and their order: service-rooms.ts.
  out.push(
    ...checkServiceRooms(
      rel,
      refs.flatMap(({ spec }) =>
        spec.startsWith(".") ? [{ spec, resolved: posix.normalize(posix.join(posix.dirname(rel), spec)) }] : [],
      ),
    ),
  );
  for (const arg of nonLiteral)
    out.push(
      `${rel}: import(${arg}) names its module by an expression; use a string literal so the layer rules can see it`,
    );
  for (const { spec, form, typeOnly } of refs) {
    const resolved = spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(rel), spec)) : null;
    if (resolved !== null) {
      const target = layerOf(resolved);
      if (!MAY_IMPORT[layer]?.includes(target)) out.push(`${rel}: imports ${spec} (${layer} may not import ${target})`);
      if (layer === "services" && target === "store" && !isPort(resolved))
        out.push(`${rel}: imports ${spec}; services see the store only through store/store.ts`);
      if (layer !== "store" && IMPLEMENTATION.test(resolved) && !COMPOSITION_ROOTS.has(rel))
        out.push(`${rel}: imports ${spec}; only ${[...COMPOSITION_ROOTS].join(" and ")} may name a concrete store`);
      if (isPort(rel) && (IMPLEMENTATION.test(resolved) || !typeOnly || (target === "store" && !isPort(resolved))))
        out.push(
          `${rel}: ${form === "export" ? "re-exports" : "imports"} ${spec}; the port holds interfaces and types only, and imports nothing from the store's rooms`,
        );
      const from = isPort(rel) ? "top" : roomOf(rel);
      const to = isPort(resolved) ? "port" : roomOf(resolved);
      if (from !== null && from !== "top" && to !== null && to !== from) {
        const below = STORE_ROOMS.slice(0, STORE_ROOMS.indexOf(from as (typeof STORE_ROOMS)[number]));
        if (to !== "port" && (to === "top" || !(below as readonly string[]).includes(to)))
          out.push(
            `${rel}: imports ${spec}; the ${from} room imports only the port and the rooms below it (${below.join(", ") || "none"})`,
          );
      }
      if (layer !== "mcp" && /(^|\/)mcp\//.test(resolved) && form !== "dynamic" && !typeOnly)
        out.push(`${rel}: imports ${spec} statically; the MCP server is reached only by a dynamic import`);
      if (layer !== "web" && target === "web" && (form !== "dynamic" || rel !== "cli/commands/web.ts"))
        out.push(
          `${rel}: imports ${spec}; the web server is reached only by a dynamic import from cli/commands/web.ts`,
        );
      if (resolved === ENGINE.replace(/\.ts$/, ".js") && form !== "dynamic" && !typeOnly)
        out.push(
          `${rel}: imports ${spec} statically; the object engine (isomorphic-git) is loaded by a dynamic import only`,
        );
      if (layer === "api" && /^cli\//.test(resolved))
        out.push(`${rel}: imports ${spec}; pantheon/api never imports the CLI`);
      // Only store/ speaks git: a face of the services wires a store, never git's formats.
      if (layer !== "store" && /^store\/git\//.test(resolved) && !GIT_READERS.has(rel))
        out.push(`${rel}: imports ${spec}; only store/ speaks git (store/git/ is its own room)`);
    } else {
      if (layer === "domain" && !/^zod(\/mini)?$/.test(spec))
        out.push(`${rel}: imports ${spec}; the domain imports only zod and itself`);
      // render/ is formatting only: no file, process or network module, so a view cannot do I/O.
      if (layer === "render" && !/^zod(\/mini)?$/.test(spec))
        out.push(`${rel}: imports ${spec}; render/ is pure formatting and imports only zod, the domain and itself`);
      if (spec.startsWith("isomorphic-git") && rel !== ENGINE)
        out.push(`${rel}: imports ${spec}; only ${ENGINE} imports isomorphic-git`);
      if (/^(commander|@inquirer\/|picocolors)/.test(spec) && layer !== "cli")
        out.push(`${rel}: imports ${spec}; only cli/ imports commander, @inquirer and picocolors`);
      if (spec.startsWith("@modelcontextprotocol/") && layer !== "mcp")
        out.push(`${rel}: imports ${spec}; only mcp/ imports the MCP SDK`);
      if (HEAVY.test(spec) && form !== "dynamic" && !typeOnly && !(rel === ENGINE && spec === "isomorphic-git"))
        out.push(`${rel}: imports ${spec} statically; heavy modules are loaded by a dynamic import only`);
    }
  }
  const room = isPort(rel) ? "top" : roomOf(rel);
  if (room === "top" && !STORE_TOP.has(rel) && !isPort(rel))
    out.push(`${rel}: sits at the top of src/store; every store file belongs to a room (${STORE_ROOMS.join(", ")})`);
  if (room !== null && room !== "top" && !(STORE_ROOMS as readonly string[]).includes(room))
    out.push(`${rel}: is in store/${room}/, which is not one of the store's rooms (${STORE_ROOMS.join(", ")})`);
  if (layer === "domain" || layer === "render") {
    // Pure and synchronous (STYLE 2): time, randomness and the environment come in as arguments.
    const bare = blankStrings(code);
    for (const [re, what] of IMPURE)
      if (re.test(bare)) out.push(`${rel}: ${what}; ${layer}/ is pure: pass it in as an argument`);
  }
  if (layer !== "errors" && /class\s+\w+\s+extends\s+(\w*Error|PantheonError|QuietExit)\b/.test(code))
    out.push(`${rel}: declares an error class; every error class lives in the catalogue (src/errors/)`);
  return out;
}
