// The remotes of the multi-clone soak (scripts/soak-multi.mjs): a bare origin reached over
// file://, smart HTTP (git http-backend behind a small Node server, scripts/soak-http-backend.mjs)
// or ssh to an sshd the soak starts on a random localhost port with its own host key,
// authorized_keys and client key, all in the run's temporary directory. The user's ~/.ssh is
// never read or written: ssh runs with -F /dev/null, its own known_hosts and no agent.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { ENV } from "./soak-common.mjs";

export const TRANSPORTS = ["file", "http", "ssh"];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A bare repository `origin.git` under `dir`, its default branch main, pushes over HTTP allowed. */
export function makeOrigin(dir) {
  mkdirSync(dir, { recursive: true });
  const origin = join(dir, "origin.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin], { env: ENV });
  execFileSync("git", ["-C", origin, "config", "http.receivepack", "true"], { env: ENV });
  return origin;
}

/**
 * Starts what serves `origin` over `transport`; returns its URL, the environment the clones'
 * git needs (GIT_SSH_COMMAND for ssh), and stop().
 */
export async function serveOrigin(transport, origin, runDir) {
  if (transport === "file") return { url: `file://${origin}`, env: {}, stop: async () => undefined, note: "" };
  if (transport === "http") return startHttp(origin);
  if (transport === "ssh") return startSsh(origin, runDir);
  throw new Error(`unknown transport ${transport}`);
}

async function startHttp(origin) {
  const root = join(origin, "..");
  const child = spawn(process.execPath, [join(import.meta.dirname, "soak-http-backend.mjs"), root], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const port = await new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`the HTTP server did not start: ${err}`)), 10_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePort(Number(m[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`the HTTP server exited ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/origin.git`,
    env: {},
    note: `git http-backend behind a Node server on 127.0.0.1:${port} (pid ${child.pid})`,
    stop: async () => {
      child.stdin.end();
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
    },
  };
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

const SSHD_CANDIDATES = ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"];

/** sshd's path; installs openssh-server when missing and allowed (root with apt-get), else says what to install. */
function findSshd() {
  const found = () => SSHD_CANDIDATES.find((p) => existsSync(p));
  if (found()) return found();
  const hint =
    "sshd is missing: install it with `apt-get install -y --no-install-recommends openssh-server` (Debian/Ubuntu) or your system's openssh-server package";
  if (process.getuid?.() !== 0 || spawnSync("sh", ["-c", "command -v apt-get"]).status !== 0) throw new Error(hint);
  console.log("sshd is missing: apt-get install -y --no-install-recommends openssh-server");
  const r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "openssh-server"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (r.status !== 0 || !found()) throw new Error(`${hint} (apt-get exited ${r.status})`);
  return found();
}

async function startSsh(origin, runDir) {
  const sshd = findSshd();
  const dir = join(runDir, "ssh");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const key of ["host_key", "client_key"])
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `pantheon-soak-${key}`, "-f", join(dir, key)]);
  const authorized = join(dir, "authorized_keys");
  writeFileSync(authorized, readFileSync(join(dir, "client_key.pub")), { mode: 0o600 });
  const user = userInfo().username;
  const root = process.getuid?.() === 0;
  // sshd run by root wants its privilege separation directory (the package creates it at boot).
  if (root) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  let lastError = "";
  for (let attempt = 1; attempt <= 5; attempt++) {
    const port = await freePort();
    const config = join(dir, "sshd_config");
    writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, "host_key")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${authorized}`,
        `AllowUsers ${user}`,
        // The soak's own key only: no password, no PAM, no agent or port forwarding.
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
        // Eight clones fetch and push at once, each a new connection: room for all of them.
        "MaxStartups 100:30:200",
        "SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null",
        // git asks for protocol v2 through this variable, as hosting services accept it.
        "AcceptEnv GIT_PROTOCOL",
        "LogLevel ERROR",
        "",
      ].join("\n"),
    );
    const child = spawn(sshd, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const knownHosts = join(dir, "known_hosts");
    writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(join(dir, "host_key.pub"), "utf8")}`);
    const q = (p) => `'${p.replace(/'/g, "'\\''")}'`;
    const sshCommand = [
      "ssh",
      "-F /dev/null",
      `-i ${q(join(dir, "client_key"))}`,
      "-o IdentitiesOnly=yes",
      "-o IdentityAgent=none",
      "-o BatchMode=yes",
      `-o UserKnownHostsFile=${q(knownHosts)}`,
      "-o GlobalKnownHostsFile=/dev/null",
      "-o StrictHostKeyChecking=yes",
      "-o LogLevel=ERROR",
      `-p ${port}`,
    ].join(" ");
    const stop = async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.on("exit", r));
      }
    };
    // Ready when a login runs a command (sshd may still be binding the port).
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const r = spawnSync("sh", ["-c", `${sshCommand} ${user}@127.0.0.1 true`], { encoding: "utf8", env: ENV });
      if (r.status === 0)
        return {
          url: `ssh://${user}@127.0.0.1${origin}`,
          env: { GIT_SSH_COMMAND: sshCommand },
          note: `sshd ${sshd} on 127.0.0.1:${port} (pid ${child.pid}) as ${user}, keys in ${dir}`,
          stop,
        };
      lastError = r.stderr.trim();
      await sleep(200);
    }
    await stop();
    lastError = `${err.trim()} ${lastError}`.trim();
    if (!/Address already in use|Bind to port/i.test(err)) break;
  }
  throw new Error(`sshd did not accept the soak's key: ${lastError.slice(0, 600)}`);
}
