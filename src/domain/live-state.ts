/**
 * Live status (DESIGN §5): what the session hooks of a summoned assistant report, mapped to one
 * of six states. The hook's payload is the assistant's JSON on stdin, written by a program that
 * reads model output and tool arguments: it is untrusted text, so only a few known fields are
 * read, each bounded, and `detail` is one escaped line.
 */
import { escapeInline } from "./control-chars.js";
import { SESSION_ID, TIMESTAMP } from "./record-formats.js";

export const LIVE_STATES = ["starting", "working", "needs-input", "idle", "stalled", "ended"] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/** The states that mean the Director is awaited: entering one notifies. */
export const WAITING_STATES: readonly LiveState[] = ["needs-input", "idle"];

/** What one hook call says about its session. */
export interface HookSignal {
  state: LiveState;
  detail: string;
  sessionId: string | null;
}

/** One transition, kept (bounded) in the live file: what a watcher or a test replays. */
export interface LiveTransition {
  state: LiveState;
  at: string;
  event: string;
}

/** The live file a session's hooks keep (`<commondir>/pantheon/live/<mission uid>.state`). */
export interface LiveFile {
  state: LiveState;
  /** When the session entered `state`. */
  since: string;
  /** When the last event came (a `working` session silent past pantheon.stallAfter is stalled). */
  lastEventAt: string;
  detail: string;
  event: string;
  sessionId: string | null;
  history: LiveTransition[];
  /**
   * While a permission prompt is open (claude, gemini): the session's transcript and its size
   * when the prompt opened. Neither reports a declined prompt by any hook event, but both write
   * the refusal into the transcript, which stays still while the prompt waits and while an
   * approved command runs (checked with claude 2.1.197 and gemini 0.61.0). Only its size is
   * ever looked at: the path is the assistant's, passed in the hook's input.
   */
  prompt?: { transcript: string; size: number } | null;
}

const HISTORY = 20;
const DETAIL_CHARS = 160;

/** One line a person reads: escaped, whitespace folded, bounded. */
export function detailLine(text: unknown): string {
  if (typeof text !== "string") return "";
  const line = escapeInline(text.replace(/\s+/g, " ").trim());
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS - 1)}…` : line;
}

/**
 * A session id as the assistants write them (uuid, `ses_…`, thread ids); anything else is
 * dropped. `summon --resume` passes it to the assistant, so it has the mission record's format
 * (it never starts with "-"): a model in a sandbox that can write the live file gains no option.
 */
export function sessionIdOf(v: unknown): string | null {
  return typeof v === "string" && SESSION_ID.test(v) ? v : null;
}

type Payload = Record<string, unknown>;

function field(p: Payload, ...keys: string[]): unknown {
  for (const k of keys) if (p[k] !== undefined && p[k] !== null) return p[k];
  return undefined;
}

/** "Bash: npm test" from a tool call's name and input (its command or path, when it has one). */
function toolLine(p: Payload): string {
  const name = field(p, "tool_name", "tool");
  const input = field(p, "tool_input", "args");
  const arg =
    input && typeof input === "object"
      ? field(input as Payload, "command", "cmd", "file_path", "path", "pattern", "url")
      : undefined;
  const what = typeof name === "string" ? name : "a tool";
  return typeof arg === "string"
    ? `${what}: ${arg}`
    : Array.isArray(arg)
      ? `${what}: ${arg.filter((x) => typeof x === "string").join(" ")}`
      : what;
}

const START = ["SessionStart", "session.created"];
const WORK = [
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "BeforeAgent",
  "BeforeTool",
  "AfterTool",
  "BeforeModel",
  "SubagentStart",
  "PreCompact",
  "PreCompress",
  "permission.replied",
  "question.replied",
];
const ASK = ["PermissionRequest", "permission.asked", "permission.updated", "question.asked"];
const IDLE = ["Stop", "AfterAgent", "Interrupt", "session.idle", "agent-turn-complete"];
const END = ["SessionEnd", "session.deleted"];

/**
 * The state an event puts a session in, or null for an event that says nothing about it (a
 * notification of another kind, a sub-agent's stop). Event names are those of the four
 * assistants (ASSISTANTS.md "Session hooks"); opencode's plugin passes its bus events' types.
 */
export function signalOf(event: string, payload: Payload): HookSignal | null {
  const sessionId = sessionIdOf(field(payload, "session_id", "sessionID", "thread-id", "thread_id"));
  const say = (state: LiveState, detail: string): HookSignal => ({ state, detail: detailLine(detail), sessionId });
  if (START.includes(event))
    return say("starting", `session started${typeof payload.source === "string" ? ` (${payload.source})` : ""}`);
  if (END.includes(event))
    return say("ended", `session ended${typeof payload.reason === "string" ? ` (${payload.reason})` : ""}`);
  if (event === "UserPromptSubmit" || event === "BeforeAgent") return say("working", "working on a prompt");
  if (WORK.includes(event))
    return say(
      "working",
      event.startsWith("permission") || event.startsWith("question") ? "answered; working" : toolLine(payload),
    );
  if (ASK.includes(event)) {
    if (event === "question.asked")
      return say("needs-input", `asks: ${String(field(payload, "message", "question") ?? "a question")}`);
    return say("needs-input", `permission: ${toolLine(payload)}`);
  }
  if (event === "StopFailure" || event === "session.error")
    return say("idle", `stopped on an error: ${String(field(payload, "error", "message") ?? "unknown")}`);
  if (IDLE.includes(event))
    return say(
      "idle",
      event === "Interrupt" ? "interrupted; waiting for the Director" : "turn finished; waiting for the Director",
    );
  if (event === "session.status") {
    const status = field(payload, "status");
    if (status === "idle") return say("idle", "turn finished; waiting for the Director");
    if (status === "busy" || status === "retry")
      return say("working", status === "retry" ? "retrying the model" : "working");
    return null;
  }
  if (event === "Notification") {
    const kind = field(payload, "notification_type");
    const message = field(payload, "message");
    if (kind === "permission_prompt" || kind === "ToolPermission" || kind === "elicitation_dialog")
      return say("needs-input", typeof message === "string" ? message : "asks for permission");
    if (kind === "idle_prompt") return say("idle", typeof message === "string" ? message : "waiting for the Director");
    return null;
  }
  return null;
}

/**
 * The live file after one signal: `since` moves only when the state changes. `prompt`: the
 * transcript as a permission prompt opens, kept while the session stays in needs-input.
 */
export function nextLive(
  prev: LiveFile | null,
  signal: HookSignal,
  event: string,
  at: string,
  prompt: LiveFile["prompt"] = null,
): LiveFile {
  const changed = !prev || prev.state !== signal.state;
  const history = changed
    ? [...(prev?.history ?? []), { state: signal.state, at, event }].slice(-HISTORY)
    : prev.history;
  return {
    state: signal.state,
    since: changed ? at : prev.since,
    lastEventAt: at,
    // claude's permission Notification follows its PermissionRequest, which named the command.
    detail: !changed && event === "Notification" && prev.detail ? prev.detail : signal.detail,
    event,
    sessionId: signal.sessionId ?? prev?.sessionId ?? null,
    history,
    prompt: signal.state !== "needs-input" ? null : changed ? prompt : (prev.prompt ?? prompt),
  };
}

/**
 * Whether the permission prompt a needs-input session waits on was answered without an event:
 * its transcript moved on (`sizeNow`) since the prompt opened. claude and gemini send no hook
 * event when the Director declines or cancels; an approval sends one (PostToolUse, AfterTool).
 */
export function promptAnsweredSilently(live: LiveFile, sizeNow: number | null): boolean {
  return live.state === "needs-input" && !!live.prompt && sizeNow !== null && sizeNow !== live.prompt.size;
}

/** An assistant's transcript path as a live file may keep it: absolute, one line, bounded. */
export function transcriptPathOf(v: unknown): string | null {
  return typeof v === "string" && v.startsWith("/") && v.length <= 4096 && !/[\u0000-\u001f\u007f]/.test(v) ? v : null;
}

/** A live file read back from disk (any clone user could have written it): checked field by field. */
export function parseLiveFile(value: unknown): LiveFile | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Payload;
  if (
    !(LIVE_STATES as readonly unknown[]).includes(v.state) ||
    typeof v.since !== "string" ||
    typeof v.lastEventAt !== "string" ||
    // A resume kickoff quotes lastEventAt: a timestamp, not text.
    !TIMESTAMP.test(v.since) ||
    !TIMESTAMP.test(v.lastEventAt)
  )
    return null;
  const history = Array.isArray(v.history)
    ? v.history
        .filter(
          (h): h is LiveTransition =>
            !!h &&
            typeof h === "object" &&
            (LIVE_STATES as readonly unknown[]).includes((h as Payload).state) &&
            typeof (h as Payload).at === "string",
        )
        .slice(-HISTORY)
        .map((h) => ({ state: h.state, at: h.at, event: detailLine(h.event) }))
    : [];
  return {
    state: v.state as LiveState,
    since: v.since,
    lastEventAt: v.lastEventAt,
    detail: detailLine(v.detail),
    event: detailLine(v.event),
    sessionId: sessionIdOf(v.sessionId),
    history,
    prompt: promptOf(v.prompt),
  };
}

function promptOf(v: unknown): LiveFile["prompt"] {
  if (!v || typeof v !== "object") return null;
  const p = v as Payload;
  const transcript = transcriptPathOf(p.transcript);
  return transcript && Number.isSafeInteger(p.size) && (p.size as number) >= 0
    ? { transcript, size: p.size as number }
    : null;
}

/** Whether a `working` session has been silent for longer than `stallAfterMs`. */
export function silentTooLong(live: Pick<LiveFile, "state" | "lastEventAt">, now: Date, stallAfterMs: number): boolean {
  if (live.state !== "working" || stallAfterMs <= 0) return false;
  const last = Date.parse(live.lastEventAt);
  return Number.isFinite(last) && now.getTime() - last > stallAfterMs;
}
