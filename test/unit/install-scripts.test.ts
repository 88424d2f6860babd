/**
 * npm 11 runs no dependency's install script unless `allowScripts` in package.json decides, and
 * ends `npm ci` and `npm install -g .` with an "install-scripts ... not yet covered" warning for
 * each undecided one, naming `npm config set allow-scripts=pantheon` (which would also allow the
 * registry's unrelated `pantheon`). The install the README gives needs no script: each package
 * of the lock with one is decided in package.json, and the global link runs none (`npm ci`
 * built dist/ already).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
const read = (p: string) => readFileSync(join(ROOT, p), "utf8");

describe("the README's install runs no script npm 11 would warn about", () => {
  it("every package of the lock with an install script is decided in package.json's allowScripts", () => {
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const decided = (JSON.parse(read("package.json")) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== "" && p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.filter((name) => !(name in decided))).toEqual([]);
  });

  it("the README's global install skips the build script npm ci has already run", () => {
    const globals = read("README.md")
      .split("\n")
      .filter((l) => /^npm install -g\b/.test(l.trim()) || /`npm install -g (?!pantheon`)[^`]*`/.test(l));
    expect(globals.length).toBeGreaterThan(0);
    for (const l of globals) expect(l, l).toMatch(/--ignore-scripts/);
  });
});
