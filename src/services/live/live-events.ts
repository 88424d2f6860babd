/**
 * `pantheon hook event`: one call per session-hook event of a summoned assistant (DESIGN §5,
 * live status). It runs on every tool call of every persona, so it stays small: no zod, no git
 * objects, no ref; it reads the session's summon record and its live file and rewrites the
 * latter. It must never fail or block the assistant: its caller prints nothing and exits 0.
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  detailLine,
  nextLive,
  parseLiveFile,
  signalOf,
  transcriptPathOf,
  WAITING_STATES,
  type LiveFile,
} from "../../domain/live-state.js";
import { liveDir, liveDirReady, readLiveText, replaceLiveFile } from "./live-files.js";

/** The most hook input read: a payload carries a prompt or a tool's input, never megabytes we need. */
export const HOOK_INPUT_LIMIT = 256 * 1024;

export interface HookEventInput {
  commonDir: string;
  env: NodeJS.ProcessEnv;
  /** The event as the hook command names it (argv), else the payload's `hook_event_name`. */
  event: string | undefined;
  /** The assistant's JSON on stdin, already bounded by the caller. */
  stdin: string;
  now: Date;
  /** `pantheon.notify` of this clone, read only when a notification is due. */
  notifySetting: () => string | undefined;
  /** Starts a program detached (argv, never a shell) and forgets it. */
  spawnDetached: (command: string, args: string[]) => void;
}

export type HookEventResult = { recorded: LiveFile; notified: boolean } | { ignored: string };

/** The mission uid summon hands the session's hooks (PANTHEON_LIVE); a path is never built from anything else. */
export function liveUid(env: NodeJS.ProcessEnv): string | null {
  const v = env.PANTHEON_LIVE;
  return v && /^[A-Za-z0-9_-]{8,64}$/.test(v) ? v : null;
}

function liveFileName(uid: string): string {
  return `${uid.replace(/[^A-Za-z0-9_-]/g, "_")}.state`;
}

export function liveFilePath(commonDir: string, uid: string): string {
  return join(liveDir(commonDir), liveFileName(uid));
}

/** The live file of a mission, or null when there is none or it does not read (a link, a FIFO: not read). */
export function readLiveFile(commonDir: string, uid: string): LiveFile | null {
  try {
    return parseLiveFile(JSON.parse(readLiveText(liveFilePath(commonDir, uid)).text));
  } catch {
    return null;
  }
}

/**
 * Writes `ended` into a session's live file (summon does, once its assistant has exited): every
 * assistant's session ends there, whether or not its own hooks said so.
 */
export function markSessionEnded(commonDir: string, uid: string, detail: string, now: Date): void {
  markSession(commonDir, uid, "ended", detail, now);
}

/** Sets a session's live state from summon itself (`ended` when it is over, `starting` when resumed). */
export function markSession(
  commonDir: string,
  uid: string,
  state: "starting" | "ended",
  detail: string,
  now: Date,
): void {
  const prev = readLiveFile(commonDir, uid);
  if (prev?.state === state) return;
  const next = nextLive(prev, { state, detail: detailLine(detail), sessionId: null }, "summon", now.toISOString());
  // No live folder (the session never got one), or a link in its place: nothing to mark.
  const dir = liveDirReady(commonDir, false);
  try {
    if (dir) replaceLiveFile(dir, liveFileName(uid), `${JSON.stringify(next)}\n`);
  } catch {
    // A folder this process cannot write: the state stays as the hooks left it.
  }
}

/** Removes the live files of missions that have ENDED (their summons are over). */
export function sweepLiveFiles(commonDir: string, endedUids: readonly string[]): void {
  // Not through a link standing for the folder: that would remove files elsewhere.
  const dir = liveDirReady(commonDir, false);
  if (dir) for (const uid of endedUids) rmSync(join(dir, liveFileName(uid)), { force: true });
}

/** Records one hook event in the session's live file; notifies the Director on entering a waiting state. */
export function recordHookEvent(i: HookEventInput): HookEventResult {
  const uid = liveUid(i.env);
  if (!uid) return { ignored: "not a session summon started (no PANTHEON_LIVE)" };
  const dir = liveDirReady(i.commonDir, false);
  if (!dir) return { ignored: "no live folder (or something other than a folder in its place)" };
  let summon: { persona?: unknown; mission?: unknown; assistant?: unknown };
  let mode: number;
  try {
    // No summon record (or a link, a FIFO in its place): the mission was not summoned from this
    // clone, or its summon has ended it.
    const record = readLiveText(join(dir, `${uid}.json`));
    summon = JSON.parse(record.text) as typeof summon;
    mode = record.mode;
  } catch {
    return { ignored: "no summon record for this session" };
  }
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(i.stdin);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (or nothing): the event name alone still says something.
  }
  const named = i.event ?? (typeof payload.hook_event_name === "string" ? payload.hook_event_name : "");
  const event = /^[A-Za-z][A-Za-z0-9_.-]{0,40}$/.test(named) ? named : "";
  const signal = event ? signalOf(event, payload) : null;
  if (!signal) return { ignored: `event ${detailLine(named) || "(none)"} does not change the state` };
  const prev = readLiveFile(i.commonDir, uid);
  const next = nextLive(prev, signal, event, i.now.toISOString(), promptOpening(summon.assistant, signal, payload));
  // A rename is atomic: a reader sees the old file or the new one, never half of one. The
  // summon record's bits (core.sharedRepository): whoever may read one may read the other.
  replaceLiveFile(dir, liveFileName(uid), `${JSON.stringify(next)}\n`, mode);
  const entered = prev?.state !== next.state && WAITING_STATES.includes(next.state);
  let notified = false;
  if (entered && notifyChannels(i.notifySetting()).has("desktop")) {
    const who =
      typeof summon.persona === "string"
        ? detailLine(summon.persona)
        : typeof summon.mission === "string"
          ? detailLine(summon.mission)
          : "A persona";
    // notify-send may read markup in the body: the detail is record-like text, so no markup passes.
    const body = next.detail.replace(/[<>&]/g, (c) => ({ "<": "‹", ">": "›", "&": "+" })[c]!);
    i.spawnDetached("notify-send", [
      "--app-name=pantheon",
      "--",
      `${who} ${next.state === "idle" ? "is waiting for you" : "needs your input"}`,
      body,
    ]);
    notified = true;
  }
  return { recorded: next, notified };
}

/**
 * The assistants that send no event when the Director declines a permission prompt (their
 * adapters' `declinesSilently`; a unit test keeps the two equal, as the hook's fast path loads no
 * adapter): as one opens, the session's transcript size is kept, and the live views see it move
 * (domain/live-state.ts). codex (Interrupt) and opencode (permission.replied) say so themselves.
 */
export const DECLINES_SILENTLY: readonly string[] = ["claude", "gemini"];

function promptOpening(
  assistant: unknown,
  signal: { state: string },
  payload: Record<string, unknown>,
): { transcript: string; size: number } | null {
  if (signal.state !== "needs-input" || typeof assistant !== "string" || !DECLINES_SILENTLY.includes(assistant))
    return null;
  const transcript = transcriptPathOf(payload.transcript_path);
  const size = transcript ? transcriptSize(transcript) : null;
  return transcript && size !== null ? { transcript, size } : null;
}

/** A transcript's size, or null when it is not a file (only the size is ever read). */
export function transcriptSize(path: string): number | null {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** `pantheon.notify`: any of bell, desktop (comma- or space-separated), or none; unset means both. */
export function notifyChannels(setting: string | undefined): Set<"bell" | "desktop"> {
  if (setting === undefined || setting.trim() === "") return new Set(["bell", "desktop"]);
  const words = setting
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const out = new Set<"bell" | "desktop">();
  for (const w of words) if (w === "bell" || w === "desktop") out.add(w);
  return out;
}
