// npm run test:web: the web dashboard in a real headless Chromium (Debian's `chromium` package,
// driven by playwright-core). Installs what is missing: chromium with apt-get when running as
// root, playwright-core with npm (a pinned devDependency, normally already there). Where
// chromium cannot be had, says why and skips: visibly, never silently passing; in CI (CI=true)
// that is a failure (exit 1), so a CI machine without a browser never passes by testing less.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ensureDebianPackages, missingProgramExit } from "./debian-packages.mjs";

const CANDIDATES = [process.env.PANTHEON_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
const found = () => CANDIDATES.find((p) => existsSync(p));

function installChromium() {
  const why = ensureDebianPackages("test:web", { chromium: "chromium" });
  return why ?? (found() ? null : "apt-get install chromium did not provide /usr/bin/chromium");
}

function ensurePlaywright() {
  try {
    createRequire(import.meta.url).resolve("playwright-core");
    return;
  } catch {
    const pinned = JSON.parse(readFileSync("package.json", "utf8")).devDependencies["playwright-core"];
    console.log(`test:web: installing playwright-core@${pinned}`);
    execFileSync("npm", ["install", "--no-save", `playwright-core@${pinned}`], { stdio: "inherit" });
  }
}

const missing = found() ? null : installChromium();
if (missing) process.exit(missingProgramExit("test:web", `Chromium: ${missing}`, "scripts/test-web.mjs"));
ensurePlaywright();
const r = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--config", "vitest.web.config.ts", ...process.argv.slice(2)],
  { stdio: "inherit", env: { ...process.env, PANTHEON_CHROMIUM: found() } },
);
process.exit(r.status ?? 1);
