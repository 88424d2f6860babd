import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { onTestFinished, type TestContext } from "vitest";

/**
 * A private sshd for one test (as scripts/soak-transports.mjs starts one): its own host and
 * client keys, on 127.0.0.1 at a free port, logging every accepted login to a file. Clients
 * reach it through a stand-in `ssh` on PATH that adds `-F <config>` (the host alias, port, key
 * and known_hosts): the way a user's ~/.ssh/config does it, with no GIT_SSH_COMMAND, so
 * Pantheon's own ssh options apply. The user's ~/.ssh is neither read nor written.
 */
export interface Sshd {
  /** `ssh://pantheon-test/<path>`: the remote URL of a repository at `path`. */
  url(path: string): string;
  /** A directory to put first on PATH: its `ssh` runs the real one with the test's config. */
  bin: string;
  /** How many logins sshd accepted so far (one per ssh connection). */
  logins(): number;
}

const SSHD_CANDIDATES = ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"];
const SSH = ["/usr/bin/ssh", "/usr/local/bin/ssh", "/bin/ssh"];

/** sshd's path, or null (the test is then skipped visibly, and fails in CI: scripts/test-tools.mjs installs it). */
export function findSshd(): string | null {
  return SSHD_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Skips the test naming why when sshd is missing; in CI that is a failure. */
export function needSshd(ctx: TestContext): string {
  const sshd = findSshd();
  const ssh = SSH.find((p) => existsSync(p));
  if (sshd && ssh) return sshd;
  const why = "sshd or ssh is not installed: the real-ssh test is NOT run here (apt-get install openssh-server)";
  if (process.env.CI === "true") throw new Error(`${why}; in CI a missing sshd is a failure`);
  ctx.skip(why);
  return "";
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

/** Starts sshd under `dir` (a test's temporary directory); stopped when the test finishes. */
export async function startSshd(sshd: string, dir: string): Promise<Sshd> {
  const ssh = SSH.find((p) => existsSync(p))!;
  const home = join(dir, "ssh");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  for (const key of ["host_key", "client_key"])
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `pantheon-test-${key}`, "-f", join(home, key)]);
  const authorized = join(home, "authorized_keys");
  writeFileSync(authorized, readFileSync(join(home, "client_key.pub")), { mode: 0o600 });
  const user = userInfo().username;
  const root = process.getuid?.() === 0;
  if (root) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const log = join(home, "sshd.log");
  const bin = join(home, "bin");
  mkdirSync(bin);
  let lastError = "";
  for (let attempt = 1; attempt <= 5; attempt++) {
    const port = await freePort();
    const config = join(home, "sshd_config");
    writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(home, "host_key")}`,
        `PidFile ${join(home, "sshd.pid")}`,
        `AuthorizedKeysFile ${authorized}`,
        `AllowUsers ${user}`,
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        `PermitRootLogin ${root ? "prohibit-password" : "no"}`,
        "StrictModes no",
        "AllowAgentForwarding no",
        "AllowTcpForwarding no",
        "X11Forwarding no",
        "PrintMotd no",
        "MaxStartups 100:30:200",
        "SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null",
        "AcceptEnv GIT_PROTOCOL",
        // "Accepted publickey for ..." once per connection: what logins() counts.
        "LogLevel INFO",
        "",
      ].join("\n"),
    );
    const child = spawn(sshd, ["-D", "-E", log, "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.on("exit", r));
      }
    };
    onTestFinished(stop);
    const knownHosts = join(home, "known_hosts");
    writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(join(home, "host_key.pub"), "utf8")}`);
    const clientConfig = join(home, "ssh_config");
    writeFileSync(
      clientConfig,
      [
        "Host pantheon-test",
        "  HostName 127.0.0.1",
        `  Port ${port}`,
        `  User ${user}`,
        `  IdentityFile ${join(home, "client_key")}`,
        "  IdentitiesOnly yes",
        "  IdentityAgent none",
        `  UserKnownHostsFile ${knownHosts}`,
        "  GlobalKnownHostsFile /dev/null",
        "  StrictHostKeyChecking yes",
        "  LogLevel ERROR",
        "",
      ].join("\n"),
    );
    writeFileSync(join(bin, "ssh"), `#!/bin/sh\nexec ${ssh} -F '${clientConfig}' "$@"\n`, { mode: 0o755 });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const r = spawnSync(join(bin, "ssh"), ["-o", "BatchMode=yes", "pantheon-test", "true"], { encoding: "utf8" });
      if (r.status === 0)
        return {
          url: (path) => `ssh://pantheon-test${path}`,
          bin,
          logins: () => (readFileSync(log, "utf8").match(/Accepted publickey for/g) ?? []).length,
        };
      lastError = r.stderr.trim();
      await new Promise((r) => setTimeout(r, 100));
    }
    await stop();
    lastError = `${err.trim()} ${lastError}`.trim();
    if (!/Address already in use|Bind to port/i.test(`${err}${existsSync(log) ? readFileSync(log, "utf8") : ""}`))
      break;
  }
  throw new Error(`sshd did not accept the test's key: ${lastError.slice(0, 600)}`);
}
