import { readFileSync } from "node:fs";
import type { AssistantName } from "../../assistants/adapter.js";
import { ADAPTERS } from "../../assistants/registry.js";
import { processStartTime } from "./summon-record.js";

/**
 * The process of the assistant this command runs inside (DESIGN §5: a mission started inside an
 * assistant records it as summon records itself): up the parent chain, the nearest process whose
 * environment lacks the variable the assistant sets for its shells. Each assistant sets it for
 * the processes it starts, not for itself, so the chain goes pantheon, its shell (and a wrapper
 * or two), then the assistant. Null where the chain cannot be read (no /proc: not Linux) or
 * ends before one (codex runs commands in a PID namespace of its own, whose first process is its
 * sandbox helper): nothing is recorded then, and the mission ends only by `mission end`.
 */
export function assistantProcess(assistant: AssistantName): { pid: number; processStart: string | null } | null {
  const markers = ADAPTERS[assistant].shellMarkers;
  // The chain starts at this process, which the assistant's shell gave the marker (a caller that
  // passed the variables in some other way, as the in-process tests do, has no chain to walk).
  const own = environOf(process.pid);
  if (!own || !markers.some((m) => own.has(m))) return null;
  let pid = process.pid;
  // A bounded walk: a shell, a wrapper or two lie between pantheon and the assistant.
  for (let depth = 0; depth < 32; depth++) {
    const parent = parentOf(pid);
    if (parent === null || parent <= 1) return null;
    const env = environOf(parent);
    if (env === null) return null;
    if (!markers.some((m) => env.has(m))) return { pid: parent, processStart: processStartTime(parent) };
    pid = parent;
  }
  return null;
}

/** The parent pid (`/proc/<pid>/stat`, field 4), or null. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may contain spaces: count from its end.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/** The names of the variables a process started with (`/proc/<pid>/environ`), or null. */
function environOf(pid: number): Set<string> | null {
  try {
    const raw = readFileSync(`/proc/${pid}/environ`, "utf8");
    return new Set(
      raw
        .split("\0")
        .filter(Boolean)
        .map((kv) => {
          const at = kv.indexOf("=");
          return at < 0 ? kv : kv.slice(0, at);
        }),
    );
  } catch {
    return null;
  }
}
