/**
 * Each rule of the architecture test shown catching a violation, on synthetic source text: a
 * rule that catches nothing would let the real tree pass while proving nothing.
 */
import { describe, expect, it } from "vitest";
import { checkSource, parseImports } from "../helpers/architecture-rules.js";

const caught = (rel: string, text: string) => checkSource(rel, text);

describe("the architecture rules catch", () => {
  it("a cli command importing GitStore (only the composition roots may)", () => {
    expect(caught("cli/commands/task.ts", 'import { GitStore } from "../../store/git-store.js";\n')).toEqual([
      expect.stringContaining("only cli/open-store.ts and api/api-context.ts may name a concrete store"),
    ]);
    expect(
      caught("cli/commands/task.ts", 'const { MemoryStore } = await import("../../store/memory-store.js");\n'),
    ).toHaveLength(1);
    expect(caught("cli/open-store.ts", 'import { GitStore } from "../store/git-store.js";\n')).toEqual([]);
  });

  it("the port importing or re-exporting an implementation", () => {
    expect(caught("store/store.ts", 'export { GitStore } from "./git-store.js";\n')).toEqual([
      expect.stringContaining("store/store.ts: re-exports ./git-store.js"),
    ]);
    expect(caught("store/store.ts", 'export type { GitStore } from "./git-store.js";\n')).toEqual([
      expect.stringContaining("store/store.ts: re-exports ./git-store.js"),
    ]);
    expect(caught("store/store.ts", 'export * from "./state/layout.js";\n')).toEqual([
      expect.stringContaining("re-exports ./state/layout.js"),
    ]);
    expect(caught("store/store.ts", 'import { SCHEMA_VERSION } from "../domain/constants.js";\n')).toEqual([
      expect.stringContaining("holds interfaces and types only"),
    ]);
    // Types from the domain are what a port holds.
    expect(
      caught(
        "store/store.ts",
        'import type { Task } from "../domain/schemas/task.js";\nexport type { Task } from "../domain/schemas/task.js";\nimport { type A, type B } from "../domain/x.js";\n',
      ),
    ).toEqual([]);
  });

  it("the port importing anything of the store's rooms, even a type", () => {
    expect(caught("store/store.ts", 'import type { RecordKind } from "./state/layout.js";\n')).toEqual([
      expect.stringContaining("imports nothing from the store's rooms"),
    ]);
    expect(caught("store/store.ts", 'import type { Task } from "../domain/schemas/task.js";\n')).toEqual([]);
  });

  it("a part of the port (store/port/) importing a room or a value, while parts and rooms may import it", () => {
    expect(caught("store/port/sync-store.ts", 'import type { Refspec } from "../sync/state-refspec.js";\n')).toEqual([
      expect.stringContaining("imports nothing from the store's rooms"),
    ]);
    expect(caught("store/port/sync-store.ts", 'import { REF } from "../state/layout.js";\n')).toHaveLength(1);
    expect(caught("store/port/care-store.ts", 'import { x } from "./record-store.js";\n')).toEqual([
      expect.stringContaining("holds interfaces and types only"),
    ]);
    expect(caught("store/port/care-store.ts", 'import type { RecordKind } from "./record-store.js";\n')).toEqual([]);
    expect(caught("store/store.ts", 'export type * from "./port/record-store.js";\n')).toEqual([]);
    expect(caught("store/state/x.ts", 'import type { Tx } from "../port/record-store.js";\n')).toEqual([]);
    expect(caught("services/x.ts", 'import type { RecordStore } from "../store/port/record-store.js";\n')).toEqual([]);
    // A folder inside port/ is not part of it.
    expect(caught("services/x.ts", 'import type { X } from "../store/port/deep/x.js";\n')).toEqual([
      expect.stringContaining("only through store/store.ts"),
    ]);
  });

  it("a store room importing a room above it, or the stores at the top", () => {
    expect(caught("store/git/object-db.ts", 'import { loadKind } from "../cache/cache-files.js";\n')).toEqual([
      expect.stringContaining("the git room imports only the port and the rooms below it (none)"),
    ]);
    expect(caught("store/state/layout.ts", 'import type { Journal } from "../cache/cache-journal.js";\n')).toEqual([
      expect.stringContaining("(git)"),
    ]);
    expect(caught("store/sync/git-sync.ts", 'import type { GitStore } from "../git-store.js";\n')).toEqual([
      expect.stringContaining("the sync room imports only the port"),
    ]);
    expect(
      caught(
        "store/cache/read-cache.ts",
        'import type { RecordKind } from "../store.js";\nimport { RECORD_KINDS } from "../state/layout.js";\nimport { sha1 } from "../git/sha1.js";\n',
      ),
    ).toEqual([]);
    expect(caught("store/git-store.ts", 'import { ReadCache } from "./cache/read-cache.js";\n')).toEqual([]);
  });

  it("a store file outside the rooms", () => {
    expect(caught("store/new-thing.ts", "export const x = 1;\n")).toEqual([
      expect.stringContaining("every store file belongs to a room"),
    ]);
    expect(caught("store/misc/new-thing.ts", "export const x = 1;\n")).toEqual([
      expect.stringContaining("not one of the store's rooms"),
    ]);
  });

  it("a template-literal or computed import()", () => {
    expect(caught("cli/program.ts", "const m = await import(`./commands/${name}.js`);\n")).toEqual([
      expect.stringContaining("names its module by an expression"),
    ]);
    expect(caught("cli/program.ts", "const m = await import(path);\n")).toHaveLength(1);
    // What such an import would hide: a store implementation reached from a command.
    expect(parseImports("await import(`../../store/${'git'}-store.js`)").refs).toEqual([]);
  });

  it("a static import of any @inquirer package, even inside cli", () => {
    expect(caught("cli/init-wizard.ts", 'import { select } from "@inquirer/select";\n')).toEqual([
      expect.stringContaining("heavy modules are loaded by a dynamic import only"),
    ]);
    expect(caught("cli/init-wizard.ts", 'import "@inquirer/prompts";\n')).toHaveLength(1);
    expect(caught("services/ask.ts", 'import { confirm } from "@inquirer/confirm";\n')).toHaveLength(2); // not cli, and static
    expect(caught("cli/init-wizard.ts", 'const { select } = await import("@inquirer/prompts");\n')).toEqual([]);
    expect(caught("cli/prompt.ts", 'import type { Theme } from "@inquirer/core";\n')).toEqual([]);
  });

  it("an import pointing up a layer, and services reaching past the port", () => {
    expect(caught("domain/task-lifecycle.ts", 'import { view } from "../render/view.js";\n')).toEqual([
      expect.stringContaining("domain may not import render"),
    ]);
    expect(caught("services/claim.ts", 'import { casRef } from "../store/ref-cas.js";\n')).toEqual([
      expect.stringContaining("only through store/store.ts"),
    ]);
    expect(caught("domain/x.ts", 'import { readFileSync } from "node:fs";\n')).toEqual([
      expect.stringContaining("only zod"),
    ]);
  });

  it("the packages each layer owns, the MCP server and the API", () => {
    expect(caught("services/x.ts", 'const git = await import("isomorphic-git");\n')).toEqual([
      expect.stringContaining("only store/git/object-engine.ts imports isomorphic-git"),
    ]);
    // The object engine: the one module that imports the library, itself loaded by a dynamic import only.
    expect(caught("store/git/object-engine.ts", 'import { readObject } from "isomorphic-git";\n')).toEqual([]);
    expect(caught("store/git/tree-edit.ts", 'import { readObject } from "isomorphic-git";\n')).toHaveLength(2);
    expect(caught("store/git/object-db.ts", 'import { readContent } from "./object-engine.js";\n')).toEqual([
      expect.stringContaining("the object engine (isomorphic-git) is loaded by a dynamic import only"),
    ]);
    expect(caught("store/git/object-db.ts", 'const e = await import("./object-engine.js");\n')).toEqual([]);
    expect(caught("services/x.ts", 'import pc from "picocolors";\n')).toEqual([expect.stringContaining("only cli/")]);
    expect(caught("cli/commands/mcp.ts", 'import { serve } from "../../mcp/serve.js";\n')).toEqual([
      expect.stringContaining("reached only by a dynamic import"),
    ]);
    expect(caught("api/x.ts", 'import { main } from "../cli/main.js";\n')).toEqual([
      expect.stringContaining("api may not import cli"),
      expect.stringContaining("never imports the CLI"),
    ]);
  });

  it("the web server reached other than by cli/commands/web.ts's dynamic import", () => {
    expect(caught("cli/commands/web.ts", 'import { serveWeb } from "../../web/serve-web.js";\n')).toEqual([
      expect.stringContaining("reached only by a dynamic import from cli/commands/web.ts"),
    ]);
    expect(
      caught("cli/commands/task.ts", 'const { serveWeb } = await import("../../web/serve-web.js");\n'),
    ).toHaveLength(1);
    expect(caught("services/x.ts", 'import { serveWeb } from "../web/serve-web.js";\n')).toHaveLength(2); // a layer above, and not by the command
    expect(caught("cli/commands/web.ts", 'const { serveWeb } = await import("../../web/serve-web.js");\n')).toEqual([]);
  });

  it("the browser app importing the server, or writing HTML from strings", () => {
    expect(caught("web/client/main.ts", 'import { taskView } from "../../render/task-view.js";\n')).toEqual([
      expect.stringContaining("the browser app imports only itself"),
    ]);
    expect(caught("web/client/dom.ts", "el.innerHTML = text;\n")).toEqual([
      expect.stringContaining("writes HTML from a string"),
    ]);
    expect(
      caught(
        "web/client/main.ts",
        'import type { TaskView } from "../../render/task-view.js";\nimport dagre from "@dagrejs/dagre";\nimport { el } from "./dom.js";\n',
      ),
    ).toEqual([]);
  });

  it("render/ importing node:fs or any other module but zod", () => {
    expect(caught("render/task-text.ts", 'import { readFileSync } from "node:fs";\n')).toEqual([
      expect.stringContaining("render/ is pure formatting"),
    ]);
    expect(caught("render/task-text.ts", 'const { spawn } = await import("node:child_process");\n')).toHaveLength(1);
    expect(caught("render/task-text.ts", 'import "node:net";\n')).toHaveLength(1);
    expect(caught("render/task-text.ts", 'import type { Writable } from "node:stream";\n')).toHaveLength(1);
    expect(
      caught(
        "render/task-text.ts",
        'import * as z from "zod/mini";\nimport type { Task } from "../domain/schemas/task.js";\nimport { escapeText } from "./escape.js";\n',
      ),
    ).toEqual([]);
  });

  it("domain/ or render/ reading the process, the clock or randomness, or loading a module by require()", () => {
    for (const layer of ["domain", "render"])
      for (const [code, says] of [
        ["const home = process.env.HOME;\n", "reads process"],
        ['const v = process["env"];\n', "reads process"],
        ["const e = globalThis.process;\n", "reads globalThis"],
        ['const fs = require("node:fs");\n', "calls require()"],
        ["const at = Date.now();\n", "reads the clock"],
        ["const at = new Date();\n", "reads the clock"],
        ["const t = performance.now();\n", "reads the clock"],
        ["const id = Math.random();\n", "draws a random number"],
      ] as const)
        expect(caught(`${layer}/x.ts`, code), `${layer}: ${code}`).toEqual([
          expect.stringContaining(`${says}; ${layer}/ is pure`),
        ]);
    // What stays allowed: the words in prose, strings and names, and a date made from an argument.
    expect(
      caught(
        "domain/x.ts",
        [
          "// runs once per process; never Date.now() here",
          'const help = "process.env is read by the CLI; require() too";',
          "export const at = (iso: string) => new Date(iso);",
          "const t = { process: 1 }.process + task.process;",
        ].join("\n"),
      ),
    ).toEqual([]);
    expect(caught("services/x.ts", "const home = process.env.HOME;\n")).toEqual([]);
  });

  it("anything outside store/ importing git's formats (store/git/), the API included", () => {
    expect(caught("api/x.ts", 'import { readRef } from "../store/git/ref-cas.js";\n')).toEqual([
      expect.stringContaining("only store/ speaks git"),
    ]);
    expect(caught("api/x.ts", 'import type { Oid } from "../store/git/object-db.js";\n')).toHaveLength(1);
    expect(caught("cli/commands/log.ts", 'import { readRef } from "../../store/git/ref-cas.js";\n')).toEqual([
      expect.stringContaining("only store/ speaks git"),
    ]);
    // The wiring the API shares with the CLI stays allowed, and shell completion's fast path.
    expect(
      caught(
        "api/api-context.ts",
        'import { GitStore } from "../store/git-store.js";\nimport { discoverRepo } from "../store/repo/repo.js";\n',
      ),
    ).toEqual([]);
    expect(caught("cli/complete-fast.ts", 'import { readRef } from "../store/git/ref-cas.js";\n')).toEqual([]);
  });

  it("an error class outside the catalogue", () => {
    expect(caught("cli/watch.ts", "export class WatchEnded extends Error {}\n")).toEqual([
      expect.stringContaining("every error class lives in the catalogue"),
    ]);
    expect(caught("store/git/x.ts", "class Gone extends PantheonError {}\n")).toHaveLength(1);
    expect(caught("errors/command-exits.ts", "export class WatchEnded extends QuietExit {}\n")).toEqual([]);
  });
});

describe("the import reader", () => {
  it("ignores comments, methods named import, and text in strings", () => {
    const text = [
      '// import { GitStore } from "../store/git-store.js";',
      "/* await import(`x${y}`) */",
      "interface Api { import(file: string, o?: Options): Promise<void>; }",
      "const api = { async import(file, o) { return file; } };",
      'const s = "import(nothing)";',
      'const t = (require("node:tty") as typeof import("node:tty"));',
    ].join("\n");
    expect(parseImports(text)).toEqual({
      refs: [{ spec: "node:tty", form: "dynamic", typeOnly: true }],
      nonLiteral: [],
    });
  });
});
