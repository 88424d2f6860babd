// Loads dist/pantheon-core.cjs through V8's code cache (Node 20 has no module compile cache):
// with the cache, compiling ~280 KB of JavaScript costs ~1 ms instead of ~15 ms, and personas
// run the CLI hundreds of times. A rejected or missing cache only means a normal compile, after
// which a fresh cache is written (when the folder is writable).
"use strict";
const { readFileSync, writeFileSync, renameSync } = require("node:fs");
const { Script } = require("node:vm");
const { join } = require("node:path");

exports.loadCore = function loadCore() {
  const file = join(__dirname, "pantheon-core.cjs");
  // V8 rejects a cache made under other flags: one file per flag set, so `node dist/pantheon.js`
  // (tests) and the `pantheon` command (its shebang flags) never invalidate each other's.
  const flags = process.execArgv.filter((a) => a.startsWith("--") && !a.startsWith("--cpu-prof")).join(" ");
  const tag = flags === "" ? "" : `.${flags.replace(/[^A-Za-z0-9]+/g, "_").slice(0, 60)}`;
  const cacheFile = `${file}${tag}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run, or a read-only install without a cache: compile normally
  }
  // Module.wrap's wrapper, written out: node:module costs ~0.3 ms to load. The bundle sits beside
  // this file, so this file's own `require` resolves what the bundle requires.
  const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, "utf8")}\n});`;
  const script = new Script(source, { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, file, __dirname);
  return { core: mod.exports, script, cacheFile, stale: !cachedData || script.cachedDataRejected === true };
};

exports.saveCodeCache = function saveCodeCache(script, cacheFile) {
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile);
  } catch {
    // read-only: the next run compiles again, correctly
  }
};
