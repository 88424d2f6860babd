/**
 * Pantheon's own network calls (DESIGN §3.5): over ssh they share one connection per clone and
 * host (ControlMaster, a socket under a short private directory, ControlPersist), set through
 * GIT_SSH_COMMAND only when the user has no ssh command of their own; and every one has a time
 * limit, sync's too, so a server that accepts the connection and never answers costs a bounded
 * wait and exit 3, not a hang.
 */
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { publishingTeam } from "../../helpers/publishing-team.js";
import { makeOriginAndClones, type Clone } from "../../helpers/clones.js";
import { needSshd, startSshd } from "../../helpers/sshd.js";

/** Two clones in step with task 1 published and an ACTIVE mission in clone 0; publishing on. */
const team = publishingTeam;

/** A stand-in `ssh` first on PATH that writes each call's arguments (one line each) to a log, then fails as an unreachable host. */
function recordingSsh(root: string): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const bin = join(root, "bin");
  mkdirSync(bin);
  const log = join(root, "ssh.log");
  writeFileSync(log, "");
  writeFileSync(join(bin, "ssh"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\nexit 255\n`, { mode: 0o755 });
  return {
    env: { PATH: `${bin}:${process.env.PATH}` },
    calls: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

const controlPath = (call: string) => /-o ControlPath=(\S+)/.exec(call)?.[1] ?? null;

describe("ssh: one connection per clone, through Pantheon's own options only", () => {
  it("a claim and a sync run ssh with ControlMaster=auto, a ControlPath in a short private directory of this clone, ControlPersist and a connect timeout", async () => {
    const { c0, c1, root } = await team();
    const ssh = recordingSsh(root);
    for (const c of [c0, c1]) c.git("remote", "set-url", "origin", "ssh://someone@git.example.invalid/project.git");
    await c0.ok(["--as", "Hephaestus", "task", "claim", "1"], { env: ssh.env });
    const sync = await c0.run(["sync"], { env: ssh.env });
    expect(sync.exitCode, sync.stderr).toBe(3);
    await c1.ok(["--as", "Ptah", "task", "claim", "2"], { env: ssh.env });
    const [claim, synced, other] = ssh.calls();
    for (const call of [claim!, synced!, other!]) {
      expect(call).toContain("-o ControlMaster=auto");
      expect(call).toContain("-o ControlPersist=60");
      expect(call).toMatch(/-o ConnectTimeout=\d+ /);
      expect(call).toContain("git.example.invalid");
    }
    // The claim asks nothing (BatchMode); the sync a person started may.
    expect(claim).toContain("-o BatchMode=yes");
    expect(synced).not.toContain("BatchMode");
    // One socket directory per clone, private and short enough for a unix socket (%C is 40 characters).
    const dir0 = controlPath(claim!)!.replace(/\/%C$/, "");
    expect(controlPath(synced!)).toBe(`${dir0}/%C`);
    expect(controlPath(other!)).not.toBe(`${dir0}/%C`);
    for (const dir of [dir0, controlPath(other!)!.replace(/\/%C$/, "")]) {
      expect(Buffer.byteLength(`${dir}/${"x".repeat(40)}.${"y".repeat(16)}`)).toBeLessThan(108);
      const st = lstatSync(dir);
      expect(st.isDirectory()).toBe(true);
      expect(st.mode & 0o777).toBe(0o700);
      expect(st.uid).toBe(process.getuid!());
    }
  });

  it.each([
    ["GIT_SSH_COMMAND", (_c: Clone) => ({ GIT_SSH_COMMAND: "ssh -o User=mine" })],
    [
      "core.sshCommand",
      (c: Clone) => {
        c.git("config", "core.sshCommand", "ssh -o User=mine");
        return {};
      },
    ],
  ] as const)(
    "a user with an ssh command of their own (%s) keeps it exactly: no option of Pantheon's is added",
    async (_name, own) => {
      const { c0, root } = await team();
      const ssh = recordingSsh(root);
      c0.git("remote", "set-url", "origin", "ssh://someone@git.example.invalid/project.git");
      const env = { ...ssh.env, ...own(c0) };
      await c0.ok(["--as", "Hephaestus", "task", "claim", "1"], { env });
      expect(await c0.run(["sync"], { env })).toMatchObject({ exitCode: 3 });
      const calls = ssh.calls();
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call).toMatch(/^-o User=mine /);
        expect(call).not.toMatch(/Control|BatchMode|ConnectTimeout/);
      }
    },
  );

  it("against a real sshd: a mission start, a claim, a sync and a mission end of one clone make one ssh login", async (ctx) => {
    const sshdPath = needSshd(ctx);
    const { c0, c1, origin, root } = await team();
    const sshd = await startSshd(sshdPath, root);
    for (const c of [c0, c1]) c.git("remote", "set-url", "origin", sshd.url(origin));
    const env = { PATH: `${sshd.bin}:${process.env.PATH}` };
    const before = sshd.logins();
    await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Imhotep"], { env });
    const claim = await c0.ok(["--as", "Hephaestus", "task", "claim", "1", "--json"], { env });
    expect(JSON.parse(claim.stdout)).toMatchObject({ published: true });
    await c0.ok(["task", "note", "2", "over ssh"], { env });
    await c0.ok(["sync"], { env });
    await c0.ok(["mission", "end", "--as", "Imhotep"], { env });
    expect(sshd.logins() - before, "every git call of clone 0 went through one connection").toBe(1);
    // The other clone sees it at once: refused over its own (one) connection.
    const refused = await c1.run(["--as", "Ptah", "task", "claim", "1"], { env });
    expect(refused.exitCode, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/already claimed by Hephaestus/);
    expect(sshd.logins() - before).toBe(2);
  }, 120_000);
});

/** A TCP server on 127.0.0.1 that accepts every connection and never sends a byte. */
async function silentServer(): Promise<number> {
  const sockets: Socket[] = [];
  const server = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  onTestFinished(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return (server.address() as { port: number }).port;
}

describe("a server that accepts and never answers", () => {
  it.each([
    ["smart HTTP", (port: number) => `http://127.0.0.1:${port}/origin.git`],
    ["ssh", (port: number) => `ssh://someone@127.0.0.1:${port}/origin.git`],
  ])(
    "sync over %s gives up at its time limit (exit 3), the state untouched",
    async (_name, url) => {
      const { clones } = await makeOriginAndClones(1);
      const c0 = clones[0]!;
      await c0.ok(["task", "create", "--title", "Local", "--role", "engineer"]);
      const before = c0.ref();
      c0.git("remote", "set-url", "origin", url(await silentServer()));
      const started = Date.now();
      const r = await c0.run(["sync"], { env: { PANTHEON_NET_TIMEOUT_MS: "1500" } });
      expect(r.exitCode, r.stderr).toBe(3);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.stderr).toMatch(
        /^✗ (git fetch from origin did not finish within 1\.5 s|Cannot fetch from origin: .*timed out.*)\n/,
      );
      expect(c0.ref()).toBe(before);
    },
    30_000,
  );
});
