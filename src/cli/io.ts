import { writeSync } from "node:fs";
import { OutputClosed } from "../errors.js";
import { isTerminal } from "../is-terminal.js";
import type { Prompter } from "../services/kernel/context.js";

/** The process's streams and environment, injected so tests run the CLI in-process. */
export interface IO {
  stdout: { write(s: string): void; isTTY?: boolean; columns?: number };
  stderr: { write(s: string): void; isTTY?: boolean };
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Answers to the Director's questions; absent: asked on the terminal (cli/terminal-prompter.ts). */
  prompter?: Prompter;
  /** How to run this very Pantheon again (the node binary and the script): what summon puts on a session's PATH. */
  self?: readonly string[];
}

declare const require: NodeJS.Require;

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Synchronous writes to a descriptor: no stream machinery for output that is not a terminal.
 * `onClosed` decides what a closed pipe (EPIPE) means: stdout throws OutputClosed once and
 * drops everything after; stderr (chatter) just drops it.
 */
function fdWriter(fd: number, onClosed: () => void): (s: string) => void {
  let closed = false;
  return (s) => {
    if (closed) return;
    let buf = Buffer.from(s, "utf8");
    while (buf.length > 0) {
      try {
        buf = buf.subarray(writeSync(fd, buf));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EPIPE") {
          closed = true;
          onClosed();
          return;
        }
        // A non-blocking pipe that is full: wait a moment for the reader, then go on.
        if (code !== "EAGAIN") throw e;
        Atomics.wait(pause, 0, 0, 2);
      }
    }
  };
}

export function processIO(): IO {
  const outTTY = isTerminal(1);
  const errTTY = isTerminal(2);
  return {
    // A person at a terminal gets Node's streams (width, colours); pipes get plain writes.
    stdout: outTTY
      ? process.stdout
      : {
          write: fdWriter(1, () => {
            throw new OutputClosed("stdout was closed by its reader");
          }),
          isTTY: false,
        },
    stderr: errTTY ? process.stderr : { write: fdWriter(2, () => {}), isTTY: false },
    stdinIsTTY: isTerminal(0),
    env: process.env,
    cwd: process.cwd(),
    ...(process.argv[1] ? { self: [process.execPath, process.argv[1]] } : {}),
  };
}
