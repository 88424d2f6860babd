// Builds the CLI: dist/pantheon-core.cjs is one esbuild bundle of all of Pantheon's code (dynamic
// imports stay lazy: their modules are only evaluated when a command reaches them), run by the
// launcher dist/pantheon.js through V8's code cache. The heavy dependencies (yaml,
// @inquirer/prompts) stay in node_modules and are required only by the commands that use
// them. The build happens beside dist/ and is swapped in whole.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";

/**
 * Node built-ins the CLI may not need on a given command (child_process alone pulls in streams,
 * net and dgram: ~8 ms) become lazy proxies: loaded on the first property read. Commander
 * requires child_process at the top for executable subcommands, which Pantheon never uses.
 */
const LAZY = ["child_process", "zlib", "os", "crypto", "url", "fs/promises", "readline", "tty", "util"];
/** An ESM stand-in with the built-in's export names: nothing is loaded until one is used. */
function lazyModule(name) {
  const real = createRequire(import.meta.url)(`node:${name}`);
  const load = `let m; const l = () => (m ??= require("node:${name}"));`;
  const lines = Object.keys(real)
    .filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default")
    .map((k) =>
      typeof real[k] === "function"
        ? `export function ${k}(...a) { return new.target ? new (l().${k})(...a) : l().${k}(...a); }`
        : typeof real[k] === "object" && real[k] !== null
          ? `export const ${k} = new Proxy({}, { get: (_, p) => l().${k}[p], has: (_, p) => p in l().${k}, ownKeys: () => Reflect.ownKeys(l().${k}), getOwnPropertyDescriptor: (_, p) => ({ ...Reflect.getOwnPropertyDescriptor(l().${k}, p), configurable: true }) });`
          : `export const ${k} = ${JSON.stringify(real[k])};`,
    );
  return `${load}\n${lines.join("\n")}\nexport default new Proxy({}, { get: (_, p) => l()[p] });\n`;
}

const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY.map((m) => m.replace("/", "\\/")).join("|")})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === "lazy-builtin"
        ? undefined
        : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" },
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      contents: lazyModule(args.path),
      loader: "js",
    }));
  },
};

/**
 * isomorphic-git, the object engine (DESIGN §2.2), bundled tree-shaken into the lazy part of the
 * core (store/git/object-engine.ts is reached by a dynamic import only). Its package.json gives
 * Node the CommonJS build, which esbuild cannot tree-shake: the ES module is bundled instead.
 * Node 20 has crypto.subtle and the web compression streams, which the library prefers: its
 * first hash then costs ~15 ms and its first deflate ~150 ms (web streams). Shadowed in the
 * library's own scope, it takes its synchronous paths, given node:crypto for sha.js and
 * node:zlib for pako (each a few lines below). Its other dependencies (a lock, ref-name
 * cleaning, crc-32, ignore, diff3, pify) serve functions Pantheon does not use; CommonJS without
 * "sideEffects", esbuild would keep them whole, so they are stand-ins that throw if ever called.
 */
const ISOGIT_UNUSED = /^(async-lock|clean-git-ref|crc-32|pify|ignore|diff3)$/;
const isomorphicGit = {
  name: "isomorphic-git",
  setup(b) {
    // The package's "exports" names no index.js: its directory, from the CommonJS entry beside it.
    const lib = createRequire(import.meta.url)
      .resolve("isomorphic-git")
      .replace(/index\.cjs$/, "index.js");
    b.onResolve({ filter: /^isomorphic-git$/ }, () => ({ path: lib, sideEffects: false }));
    b.onLoad({ filter: /isomorphic-git[\\/]index\.js$/ }, (a) => ({
      contents: `const crypto = undefined, CompressionStream = undefined, DecompressionStream = undefined;\n${readFileSync(a.path, "utf8")}`,
      loader: "js",
    }));
    b.onResolve({ filter: ISOGIT_UNUSED }, (a) => ({ path: a.path, namespace: "isogit-unused" }));
    b.onLoad({ filter: /.*/, namespace: "isogit-unused" }, (a) => ({
      contents: `module.exports = function () { throw new Error("${a.path} is not bundled with Pantheon"); };`,
      loader: "js",
    }));
    b.onResolve({ filter: /^(sha\.js\/sha1\.js|pako)$/ }, (a) => ({ path: a.path, namespace: "isogit-shim" }));
    b.onLoad({ filter: /.*/, namespace: "isogit-shim" }, (a) => ({
      contents:
        a.path === "pako"
          ? // The same calls as pako's; the engine bounds what it inflates before (engine-fs.ts).
            `const z = require("node:zlib"); module.exports = { inflate: (b) => z.inflateSync(b), deflate: (b) => z.deflateSync(b, { level: 1 }) };`
          : `const c = require("node:crypto"); module.exports = function Hash() { return c.createHash("sha1"); };`,
      loader: "js",
    }));
  },
};

/** Stay in node_modules, required only by the commands that use them. */
const EXTERNAL = [
  "yaml",
  "@inquirer/prompts",
  "picocolors",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/sdk/*",
];

/** Newest modification time of the files the type declarations are made from. */
function sourcesStamp() {
  let newest = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (p.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk("src");
  for (const f of ["tsconfig.json", "tsconfig.api.json", "package-lock.json"])
    newest = Math.max(newest, statSync(f).mtimeMs);
  return String(newest);
}

/**
 * The type declarations of pantheon/api (dist/types/, named by package.json "exports"), emitted
 * by tsc without checking (`npm run typecheck` checks). Kept from the previous build when no
 * source changed: emitting takes seconds and `npm test` builds every time.
 */
function emitTypes(next) {
  const stamp = sourcesStamp();
  if (existsSync("dist/types/.stamp") && readFileSync("dist/types/.stamp", "utf8") === stamp) {
    cpSync("dist/types", `${next}/types`, { recursive: true });
    return;
  }
  const tsc = "node_modules/typescript/bin/tsc";
  if (!existsSync(tsc)) {
    console.warn("pantheon build: typescript is not installed; pantheon/api is built without type declarations");
    return;
  }
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.api.json", "--noCheck", "--outDir", `${next}/types`], {
    stdio: "inherit",
  });
  writeFileSync(`${next}/types/.stamp`, stamp);
}

/**
 * One CommonJS bundle for Node 20: minified unless PANTHEON_NO_MINIFY, the heavy dependencies
 * left in node_modules. import.meta is only read in the ESM sources (vitest); a bundle has
 * __dirname and require.
 */
function nodeBundle(entry, outfile, extra = {}) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: !process.env.PANTHEON_NO_MINIFY,
    legalComments: "none",
    external: EXTERNAL,
    logOverride: { "empty-import-meta": "silent" },
    logLevel: "warning",
    ...extra,
  });
}

const next = `dist.${process.pid}.tmp`;
mkdirSync(next, { recursive: true });
await nodeBundle("src/cli/entry.ts", `${next}/pantheon-core.cjs`, {
  // import() of those becomes require(): Node 20.19+ requires ESM packages too.
  supported: { "dynamic-import": false },
  plugins: [lazyBuiltins, isomorphicGit],
});
// pantheon/api: the same services in a library bundle of its own (package.json "exports"),
// unminified so that a user's stack traces read.
await nodeBundle("src/api/index.ts", `${next}/api.cjs`, {
  minify: false,
  supported: { "dynamic-import": false },
  plugins: [isomorphicGit],
});
emitTypes(next);
// Shell completion's id lookup: the launcher runs this alone for `pantheon __complete`, so a
// TAB costs about one node start (it reads the read cache, never commander, zod or git objects).
await nodeBundle("src/cli/complete-fast.ts", `${next}/complete.cjs`);
// pantheon web's page: one script (with @dagrejs/dagre bundled in), its style and the page,
// served from memory by src/web/web-assets.ts: nothing is fetched from elsewhere, offline works.
mkdirSync(`${next}/web`);
await build({
  entryPoints: ["src/web/client/main.ts"],
  outfile: `${next}/web/app.js`,
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  minify: !process.env.PANTHEON_NO_MINIFY,
  legalComments: "none",
  logLevel: "warning",
});
for (const f of ["index.html", "app.css"]) copyFileSync(`src/web/client/${f}`, `${next}/web/${f}`);
// The session hooks' `pantheon hook event`, run on every tool call of every persona: a bundle of
// its own, loading no commander, zod or git (docs/performance.md).
await nodeBundle("src/cli/hook-event-fast.ts", `${next}/hook-event.cjs`);
copyFileSync("scripts/core-loader.cjs", `${next}/core-loader.cjs`);
copyFileSync("scripts/pantheon-launcher.cjs", `${next}/pantheon.js`);
// dist/ is CommonJS: the launcher then starts without Node's ESM loader (~9 internal modules).
writeFileSync(`${next}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
chmodSync(`${next}/pantheon.js`, 0o755);
try {
  // With the flags the `pantheon` command runs with: none (its shebang is plain `node`).
  execFileSync(process.execPath, ["scripts/warm-code-cache.mjs", next], { stdio: "inherit" });
} catch {
  console.warn("pantheon build: could not prepare the code cache; the first run will");
}
const old = `dist.${process.pid}.old`;
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });
