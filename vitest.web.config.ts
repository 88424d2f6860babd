import { defineConfig } from "vitest/config";

// `npm run test:web`: pantheon web in a real headless Chromium (scripts/test-web.mjs installs
// Debian's chromium when missing). One file at a time: a browser and a 10,000-task project
// already use both cores.
export default defineConfig({
  test: {
    include: ["test/web/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
