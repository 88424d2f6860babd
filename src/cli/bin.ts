import { main } from "./main.js";
import { processIO } from "./io.js";

// The bundle's entry: the exit code is set, never forced, so stdout drains before exit.
main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`✗ ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
