import { defineConfig } from "vitest/config";

// Three projects: `unit` (no git repository and no process: pure code, plus a few tests that
// read the source tree or templates or write a temporary file; seconds), `integration` (real git
// repos and processes, and e2e's built bundle) and `serial`: race and kill tests live in files
// named *.serial.test.ts and run one file at a time so that 8 racing processes are not also
// racing the rest of the suite for 2 cores.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
          exclude: ["**/*.serial.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "serial",
          include: ["test/**/*.serial.test.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
