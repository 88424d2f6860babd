/** The process's streams and environment, injected so tests run the CLI in-process. */
export interface IO {
  stdout: { write(s: string): void; isTTY?: boolean; columns?: number };
  stderr: { write(s: string): void; isTTY?: boolean };
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
}
