import { fstatSync, readSync } from "node:fs";
import { loadGitConfig } from "../store/repo/git-config.js";
import { discoverRepo } from "../store/repo/repo.js";
import { HOOK_INPUT_LIMIT, recordHookEvent, type HookEventResult } from "../services/live/live-events.js";
import { appendLiveLog, liveDirReady } from "../services/live/live-files.js";
import { lazyRequire } from "../lazy-require.js";

/** How long a hook waits for its stdin to close: an assistant that keeps it open must not be held up. */
const STDIN_WAIT_MS = 1_500;
/** The local log of hook failures is cut back when it grows past this. */
const LOG_LIMIT = 64 * 1024;

/**
 * Reads the hook's stdin up to `limit` bytes (the rest is drained, not kept) and gives up after
 * `waitMs`: a terminal yields nothing, a pipe left open what came so far. A pipe or socket is
 * read through a libuv stream, never a blocking read in the thread pool: a process cannot exit
 * while one of those waits, so a writer that never closes would hold the assistant up.
 */
export function readBoundedStdin(limit = HOOK_INPUT_LIMIT, waitMs = STDIN_WAIT_MS): Promise<string> {
  return new Promise((resolve) => {
    let kind: "file" | "stream" | null = null;
    try {
      const st = fstatSync(0);
      kind = st.isFile() ? "file" : st.isFIFO() || st.isSocket() ? "stream" : null;
    } catch {
      // no stdin at all
    }
    const chunks: Buffer[] = [];
    let kept = 0;
    const keep = (b: Buffer) => {
      if (kept >= limit) return;
      const take = Math.min(b.length, limit - kept);
      chunks.push(take === b.length ? b : b.subarray(0, take));
      kept += take;
    };
    const text = () => Buffer.concat(chunks).toString("utf8");
    if (kind === "file") {
      // A redirected file ends: read it (bounded) synchronously.
      const buf = Buffer.alloc(64 * 1024);
      try {
        for (
          let n = readSync(0, buf, 0, buf.length, null);
          n > 0 && kept < limit;
          n = readSync(0, buf, 0, buf.length, null)
        )
          keep(Buffer.from(buf.subarray(0, n)));
      } catch {
        // unreadable: what came so far
      }
      return resolve(text());
    }
    if (kind !== "stream") return resolve("");
    const net = lazyRequire("node:net") as typeof import("node:net");
    let socket: import("node:net").Socket;
    try {
      socket = new net.Socket({ fd: 0, readable: true, writable: false });
    } catch {
      return resolve("");
    }
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(text());
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (b: Buffer) => keep(b));
    socket.on("end", finish);
    socket.on("error", finish);
    socket.on("close", finish);
  });
}

/**
 * The `pantheon hook event [ASSISTANT] [EVENT]` fast path (the launcher runs it without the CLI):
 * records the event in the session's live file. Whatever goes wrong, the assistant sees nothing:
 * no output, exit 0; a failure is appended to `<commondir>/pantheon/live/hook.log` when the
 * repository is known.
 */
export async function hookEvent(
  argv: readonly string[],
  cwd = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<HookEventResult | { failed: string }> {
  // argv: hook event <assistant> <event>; the assistant's name is informational (the summon record knows it).
  const event = argv[3];
  const stdin = await readBoundedStdin();
  let commonDir: string | null = null;
  try {
    commonDir = discoverRepo(cwd, env).commonDir;
    const found = commonDir;
    return recordHookEvent({
      commonDir: found,
      env,
      event,
      stdin,
      now: new Date(),
      notifySetting: () => loadGitConfig(found, env).get("pantheon.notify"),
      spawnDetached: (command, args) => {
        const child = (lazyRequire("node:child_process") as typeof import("node:child_process")).spawn(command, args, {
          detached: true,
          stdio: "ignore",
          env,
        });
        child.on("error", () => {}); // no notify-send here: nothing to tell
        child.unref();
      },
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (commonDir)
      logFailure(commonDir, `${new Date().toISOString()} hook event ${JSON.stringify(argv.slice(2))}: ${message}\n`);
    return { failed: message };
  }
}

function logFailure(commonDir: string, line: string): void {
  try {
    // Never through a link (a planted hook.log -> ~/.bashrc would be appended to, or emptied).
    const dir = liveDirReady(commonDir, false);
    if (dir) appendLiveLog(dir, "hook.log", line, LOG_LIMIT);
  } catch {
    // The live folder is not writable either: there is nowhere local left to say it.
  }
}

/** The bundle's entry (dist/hook-event.cjs): never throws, prints nothing. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await hookEvent(argv);
  } catch {
    // hookEvent logs what it can; nothing may reach the assistant
  }
}
