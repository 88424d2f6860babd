// Preloaded by the bench (node --import): reports the process's peak resident memory on exit.
import { writeSync } from "node:fs";
process.on("exit", () => {
  if (process.env.PANTHEON_BENCH_RSS) writeSync(2, `\nBENCH_MAX_RSS_KB ${process.resourceUsage().maxRSS}\n`);
});
