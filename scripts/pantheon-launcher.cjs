#!/usr/bin/env node
"use strict";
// The `pantheon` command: runs the bundle through V8's code cache (see core-loader.cjs).
// No V8 flag on the first line: any flag changes V8's flag hash, and Node then rejects the code
// cache of its own built-in modules and compiles each one it loads (requiring node:net took 5.5
// ms instead of 1.6). `--min-semi-space-size=16` spared a 10,000-task read its scavenges, but
// paid as much back that way, and cost the session hook 6 ms (docs/performance.md).

function runCore() {
  const { loadCore, saveCodeCache } = require("./core-loader.cjs");
  const { core, script, cacheFile, stale } = loadCore();
  if (stale) process.once("exit", () => saveCodeCache(script, cacheFile));
  const io = core.processIO();
  core.main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
      // Output that is not a terminal was written synchronously (core's fd writers), so nothing
      // is left to drain: exiting now spares waiting for V8's background compile jobs (~3 ms).
      // A terminal's streams are left to drain on their own.
      if (!io.stdout.isTTY && !io.stderr.isTTY) process.exit(code);
    },
    (e) => {
      process.stderr.write(`✗ ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

const args = process.argv.slice(2);
// Shell completion asks for ids on every TAB: complete.cjs answers from the read cache without
// loading the CLI; when it cannot (no cache yet, the journal does not reach the ref), the CLI does.
if (args[0] === "__complete" || (args[0] === "-C" && args[2] === "__complete")) {
  // Answered: exit at once (as runCore does), not after V8's background compile jobs.
  require("./complete.cjs")
    .complete(args)
    .then((done) => (done ? process.exit(0) : runCore()), runCore);
} else if (args[0] === "hook" && args[1] === "event" && !args.includes("--help") && !args.includes("-h")) {
  // Session hooks run this on every tool call of every persona: hook-event.cjs records the event
  // without loading the CLI, prints nothing and always exits 0 (a hook must never fail the assistant).
  const quit = () => process.exit(0);
  try {
    require("./hook-event.cjs").main(args).then(quit, quit);
  } catch {
    quit();
  }
} else {
  runCore();
}
