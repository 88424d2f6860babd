// Builds the CLI into one esbuild bundle (dist/pantheon.js) plus lazily loaded chunks for the
// heavy modules (isomorphic-git, yaml, @inquirer/prompts), so start-up loads only what runs.
import { build } from "esbuild";
import { chmodSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { pantheon: "src/cli/bin.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: process.env.PANTHEON_NO_MINIFY ? false : true,
  sourcemap: false,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies call require() for Node built-ins; give the ESM bundle a real one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pantheonCreateRequire } from 'node:module';\nconst require = __pantheonCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
chmodSync("dist/pantheon.js", 0o755);
