import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { constants as os } from "node:os";
import type { Launcher, SessionEnd } from "../services/kernel/context.js";

/** How long an assistant gets to exit after a forwarded signal before it is asked harder. */
const GRACE_MS = 3_000;

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + ((signal && os.signals[signal]) || 1);
}

/** Finds programs on PATH and runs them with the terminal handed over (all assistants are TUIs). */
export function processLauncher(env: NodeJS.ProcessEnv): Launcher {
  const launcher: Launcher = {
    which(binary) {
      for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
        const candidate = join(dir, binary);
        try {
          accessSync(candidate, constants.X_OK);
          return candidate;
        } catch {
          // not here
        }
      }
      return null;
    },
    run(command, args, o) {
      return new Promise((resolve, reject) => {
        // An argv array, never a shell: titles and names in the kickoff cannot inject anything.
        // The program found on PATH is the one run: given a bare name, execvp would go on down
        // PATH past an entry that cannot be executed and start another install of it.
        const program = command.includes("/") ? command : (launcher.which(command) ?? command);
        const child = spawn(program, args, { cwd: o.cwd, env: { ...env, ...o.env }, stdio: "inherit" });
        // The program owns Ctrl-C while it runs; pantheon waits for it.
        const ignore = () => {};
        process.on("SIGINT", ignore);
        child.on("error", (e) => {
          process.removeListener("SIGINT", ignore);
          reject(e);
        });
        child.on("exit", (code, signal) => {
          process.removeListener("SIGINT", ignore);
          resolve(exitCodeOf(code, signal));
        });
      });
    },
    session(command, args, o) {
      return new Promise<SessionEnd>((resolve, reject) => {
        // The program found on PATH, as in run().
        const program = command.includes("/") ? command : (launcher.which(command) ?? command);
        const child = spawn(program, args, { cwd: o.cwd, env: { ...env, ...o.env }, stdio: "inherit" });
        let received: SessionEnd["received"] = null;
        const timers: NodeJS.Timeout[] = [];
        // Ctrl-C reaches the assistant through the terminal (same process group): it decides.
        const ignore = () => {};
        const forward = (signal: "SIGHUP" | "SIGTERM") => {
          if (signal === "SIGHUP") quietTerminal();
          if (received) return;
          received = signal;
          // The assistant first hears what pantheon heard, then SIGTERM, then SIGKILL: the
          // mission must end within seconds even when the assistant ignores the first.
          signalChild(child, signal);
          timers.push(setTimeout(() => signalChild(child, "SIGTERM"), GRACE_MS));
          timers.push(setTimeout(() => signalChild(child, "SIGKILL"), 2 * GRACE_MS));
        };
        const onHup = () => forward("SIGHUP");
        const onTerm = () => forward("SIGTERM");
        process.on("SIGINT", ignore);
        process.on("SIGHUP", onHup);
        process.on("SIGTERM", onTerm);
        const done = () => {
          for (const t of timers) clearTimeout(t);
          process.removeListener("SIGINT", ignore);
          process.removeListener("SIGHUP", onHup);
          process.removeListener("SIGTERM", onTerm);
        };
        child.on("error", (e) => {
          done();
          reject(e);
        });
        child.on("exit", (code, signal) => {
          done();
          resolve({ code: exitCodeOf(code, signal), received });
        });
      });
    },
  };
  return launcher;
}

function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

/**
 * After a hangup the terminal is gone: a write to it fails with EIO, and an unhandled stream
 * error would kill pantheon before it ends the mission. What is left to say goes nowhere.
 */
function quietTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount("error") === 0) stream.on("error", () => {});
  }
}
