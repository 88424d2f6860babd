// Installs Debian packages a test suite needs when their programs are missing: with apt-get when
// running as root (an `apt-get update` first only if the plain install fails), else says what to
// install. Returns null when every program is there afterwards, or the reason it is not.
import { spawnSync } from "node:child_process";

const onPath = (program) => spawnSync("sh", ["-c", 'command -v "$1"', "sh", program]).status === 0;

/**
 * @param {string} label the suite asking (printed before installing)
 * @param {Record<string, string>} programs program name -> the Debian package that provides it
 * @returns {string | null}
 */
export function ensureDebianPackages(label, programs) {
  const missing = Object.entries(programs).filter(([program]) => !onPath(program));
  if (missing.length === 0) return null;
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  if (process.getuid?.() !== 0)
    return `${missing.map(([p]) => p).join(", ")} not installed and this is not root (apt-get install ${packages.join(" ")})`;
  console.log(`${label}: installing ${packages.join(", ")} (apt-get install -y)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages], { stdio: "inherit", env });
  if (install().status !== 0) {
    spawnSync("apt-get", ["update", "-q"], { stdio: "inherit", env });
    install();
  }
  const still = missing.filter(([program]) => !onPath(program)).map(([p]) => p);
  return still.length === 0 ? null : `apt-get install ${packages.join(" ")} did not provide ${still.join(", ")}`;
}

/**
 * What a suite runner does when a program it needs cannot be had: outside CI it says why and
 * skips (exit code 0); in CI (CI=true) it fails (exit code 1), naming the program and the
 * script that installs it.
 * @param {string} label the suite
 * @param {string} why what is missing, and why
 * @param {string} installer the script that installs it
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {0 | 1} the exit code
 */
export function missingProgramExit(label, why, installer, env = process.env) {
  if (env.CI === "true") {
    console.error(
      `${label} FAILED: ${why} (installed by ${installer}; in CI a missing program is a failure, not a skip)`,
    );
    return 1;
  }
  console.log(`${label} SKIPPED: ${why} (installed by ${installer})`);
  return 0;
}
