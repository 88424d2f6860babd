import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { makeRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 15, point 4: the README's install line for one's own repositories. `npm ci` has run
 * here already (it built dist/), so this runs the second half, `npm install -g --ignore-scripts .`, into a
 * scratch prefix (offline, scripts off: the build is done), then uses the `pantheon` it put on
 * the PATH in a separate repository, as a new user would.
 */
const ROOT = resolve(__dirname, "../..");

describe("npm install -g . from the clone puts a working pantheon on the PATH", () => {
  it("then pantheon init --yes and pantheon dashboard work in another repository", () => {
    expect(existsSync(BIN), "the bundle is built (npm test builds it)").toBe(true);
    const prefix = tempDir("pantheon-prefix-");
    const install = spawnSync(
      "npm",
      ["install", "-g", "--prefix", prefix, "--ignore-scripts", "--offline", "--no-audit", "--no-fund", "."],
      { cwd: ROOT, env: testEnv(), encoding: "utf8" },
    );
    expect(install.status, install.stderr).toBe(0);
    // npm 11 warns of each install script it skipped that package.json has not decided.
    expect(install.stderr, "no install-scripts warning").not.toMatch(/install-scripts/);
    const bin = join(prefix, "bin");
    expect(realpathSync(join(bin, "pantheon"))).toBe(realpathSync(BIN));

    const repo = makeRepo();
    const env = testEnv({ PATH: `${bin}:${process.env.PATH ?? ""}`, NO_COLOR: "1" });
    const run = (...argv: string[]) => spawnSync("pantheon", argv, { cwd: repo, env, encoding: "utf8" });
    const init = run("init", "--yes");
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^✓ Initialized Pantheon for "pantheon-test-\w+" on refs\/coordination\/main/);
    expect(
      existsSync(join(repo, ".pantheon", "personas", "engineer.md")),
      "templates are found through the linked package",
    ).toBe(true);
    const dashboard = run("dashboard");
    expect(dashboard.status, dashboard.stderr).toBe(0);
    expect(dashboard.stdout).toMatch(/^Pantheon · pantheon-test-/);
  });
});
