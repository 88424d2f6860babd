import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN, runCli } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { missingTool, titled } from "../helpers/tools.js";
import { git, tempDir } from "../helpers/repo.js";
import { repoInParent } from "../integration/persona/fixture.js";
import { standIns } from "../integration/persona/stand-ins.js";
import { AGENT_MARKERS } from "../../src/cli/interactive.js";

/**
 * Issue 12 point 1 on a real terminal: `summon --worktree` shows the worktree set-up command
 * (control characters escaped: the file is anyone's commit) and runs it only when the Director
 * answers yes. A detached tmux pane on a private socket runs the built bundle with the
 * assistant and CI markers unset (as init-wizard.serial.test.ts does); bounded polling of the
 * screen, no fixed sleeps.
 */

const noTmux = missingTool("tmux", "the worktree set-up question at a terminal");
/** Every marker that turns prompting off: unset, so the pane is a person at a terminal. */
const MARKERS = AGENT_MARKERS;

/** Runs `pantheon <args>` in a tmux pane in `cwd`; returns the screen reader, key sender and exit code. */
function pane(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
  const scratch = tempDir("pantheon-tmux-");
  const rc = join(scratch, "rc");
  const socket = `pantheon-setup-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const full = testEnv({ TERM: "xterm-256color", ...env });
  for (const k of MARKERS) delete full[k];
  delete full.TMUX;
  writeFileSync(join(scratch, "tmux.conf"), "set -g remain-on-exit on\nset -g history-limit 2000\n");
  const tmux = (...a: string[]) =>
    execFileSync("tmux", ["-L", socket, ...a], { env: full, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const unset = MARKERS.flatMap((k) => ["-u", k]).join(" ");
  tmux(
    "-f",
    join(scratch, "tmux.conf"),
    "new-session",
    "-d",
    "-x",
    "200",
    "-y",
    "50",
    "-c",
    cwd,
    `env ${unset} '${process.execPath}' '${BIN}' ${args.join(" ")}; echo $? > '${rc}'`,
  );
  onTestFinished(() => void spawnSync("tmux", ["-L", socket, "kill-server"], { env: full }));
  const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-");
  const poll = async <T>(what: string, check: () => T | undefined): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const v = check();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    screen,
    keys: (...k: string[]) => void tmux("send-keys", "-t", "0", ...k),
    waitFor: (re: RegExp, what: string) => poll(what, () => (re.test(screen()) ? screen() : undefined)),
    exitCode: () =>
      poll("pantheon to exit", () =>
        existsSync(rc) && readFileSync(rc, "utf8").endsWith("\n") ? Number(readFileSync(rc, "utf8").trim()) : undefined,
      ),
  };
}

/** A project with a committed .pantheon/worktree-setup whose comment carries an escape sequence. */
async function project(): Promise<string> {
  const { dir } = repoInParent();
  expect((await runCli(["init", "--yes"], { cwd: dir })).exitCode).toBe(0);
  mkdirSync(join(dir, ".pantheon"), { recursive: true });
  writeFileSync(
    join(dir, ".pantheon", "worktree-setup"),
    "echo ran > .setup-ran # \u001b[31mRED\u001b]0;title\u0007\n",
  );
  git(dir, "add", ".pantheon/worktree-setup");
  git(dir, "commit", "-q", "-m", "set-up");
  return dir;
}

describe.skipIf(noTmux !== null)(titled("summon --worktree asks before the set-up command runs", noTmux), () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
  });

  it("shows the command escaped; yes runs it in the worktree and is remembered; a changed command asks again and No (the default) skips it", async () => {
    const dir = await project();
    const s = standIns();
    const first = pane(dir, ["summon", "engineer", "--assistant", "claude", "--worktree"], s.env());
    const shown = await first.waitFor(/Run this set-up command in the new worktree/, "the set-up question");
    expect(shown).toContain("A worktree set-up command (from .pantheon/worktree-setup) will run with sh -c:");
    expect(shown, "the escape sequence is shown as text").toContain(
      "echo ran > .setup-ran # \\e[31mRED\\e]0;title\\u{7}",
    );
    first.keys("y", "Enter");
    expect(await first.exitCode()).toBe(0);
    const wt = s.one("claude").cwd;
    expect(readFileSync(join(wt, ".setup-ran"), "utf8")).toBe("ran\n");
    expect(existsSync(join(dir, ".git", "pantheon", "worktree-setup-confirmed"))).toBe(true);

    writeFileSync(join(dir, ".pantheon", "worktree-setup"), "echo changed > .setup-ran\n");
    git(dir, "commit", "-q", "-am", "set-up changed");
    const second = pane(dir, ["summon", "engineer", "--assistant", "claude", "--worktree"], s.env());
    const asked = await second.waitFor(/Run this set-up command in the new worktree/, "the question again");
    expect(asked).toContain("The worktree set-up command changed (from .pantheon/worktree-setup)");
    second.keys("Enter");
    expect(await second.exitCode()).toBe(0);
    const wt2 = s
      .all()
      .map((r) => r.cwd)
      .find((c) => c !== wt)!;
    expect(existsSync(join(wt2, ".setup-ran")), "declined: not run").toBe(false);
    expect(second.screen()).toContain("worktree set-up not run (declined)");
  });
});
