import { defineConfig } from "vitest/config";

// The real-assistant tests (docs/assistants.md): each assistant in a terminal against a scripted
// model. Slow; they need the npm registry once to fill a cache outside the clone, then run
// offline. Kept out of `npm test`; run with `npm run test:assistants` (.ci/run does, after it).
export default defineConfig({
  test: {
    include: ["test/assistants/**/*.test.ts"],
    globalSetup: ["scripts/check-assistants.mjs"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
