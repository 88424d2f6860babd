// Builds the CLI into one esbuild bundle (dist/pantheon.js) plus lazily loaded chunks: each
// top-level command and each heavy module (isomorphic-git, yaml, @inquirer/prompts, zod) is
// loaded only by the commands that need it. The bundle is built beside dist/ and swapped in,
// so a process running the old bundle never sees half of a new one.
import { build } from "esbuild";
import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";

const next = `dist.${process.pid}.tmp`;
await build({
  entryPoints: { pantheon: "src/cli/bin.ts" },
  outdir: next,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: !process.env.PANTHEON_NO_MINIFY,
  sourcemap: false,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies call require() for Node built-ins; give the ESM bundle a real one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pantheonCreateRequire } from 'node:module';\nconst require = __pantheonCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
chmodSync(`${next}/pantheon.js`, 0o755);
const old = `dist.${process.pid}.old`;
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });
