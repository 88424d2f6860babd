import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { constants as os } from "node:os";
import type { Launcher } from "../services/context.js";

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
        // The assistant owns Ctrl-C while it runs; pantheon waits and then ends the mission.
        const ignore = () => {};
        process.on("SIGINT", ignore);
        child.on("error", (e) => {
          process.removeListener("SIGINT", ignore);
          reject(e);
        });
        child.on("exit", (code, signal) => {
          process.removeListener("SIGINT", ignore);
          resolve(code ?? 128 + ((signal && os.signals[signal]) || 1));
        });
      });
    },
  };
  return launcher;
}
