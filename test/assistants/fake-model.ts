/**
 * A local HTTP server standing in for each vendor's model API (Anthropic messages, Gemini
 * generateContent/streamGenerateContent, OpenAI Responses): it records every request and
 * answers as a scripted model, in the vendor's streaming format. On the assistant's main agent
 * turn (a request that offers its shell tool) the script may answer with one shell command; once
 * the tool's result comes back, it answers with text. Every other request (titles, routing,
 * token counts) gets a plain or schema-shaped answer so that the program goes on.
 *
 * The formats follow the programs' own code: codex's test helpers (core/tests/common/responses.rs),
 * gemini-cli's SSE parsing, Anthropic's documented message stream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Vendor = "anthropic" | "gemini" | "openai";

export interface Recorded {
  n: number;
  vendor: Vendor | null;
  method: string;
  url: string;
  body: any;
  /** The whole body as text, for searching. */
  text: string;
  /** Whether it is a main agent turn (its shell tool is offered). */
  main: boolean;
  /** What the scripted model answered: a shell command, or text. */
  answered: { shell: string } | { text: string } | null;
}

/** Given a main-turn request, the shell command to run now, or null to answer with text. */
export type ShellScript = (r: { vendor: Vendor; text: string; lastUserText: string }) => string | null;
type Script = { run: ShellScript; issued: Set<string> };

/**
 * A command the scripted model asks to run outside the sandbox (codex's `require_escalated`,
 * which asks the Director): `escalated("touch x")`. Other vendors run the command as given.
 */
const ESCALATE = "\u0000escalate\u0000";
export function escalated(command: string): string {
  return `${ESCALATE}${command}`;
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: Recorded[];
  /** Main-turn requests only. */
  mainTurns(): Recorded[];
  setScript(script: ShellScript): void;
  close(): Promise<void>;
}

const REPLY = "Done. Tell me what to do next.";

export async function startFakeModel(script: ShellScript = () => null): Promise<FakeModel> {
  const requests: Recorded[] = [];
  let current: Script = { run: script, issued: new Set() };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d: Buffer) => (raw += d.toString()));
    req.on("end", () => {
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const rec: Recorded = {
        n: requests.length + 1,
        vendor: vendorOf(req),
        method: req.method ?? "",
        url: req.url ?? "",
        body,
        text: raw,
        main: false,
        answered: null,
      };
      requests.push(rec);
      try {
        answer(rec, req, res, current);
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(e) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainTurns: () => requests.filter((r) => r.main),
    setScript: (s) => (current = { run: s, issued: new Set() }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function vendorOf(req: IncomingMessage): Vendor | null {
  const url = req.url ?? "";
  if (/\/v1\/messages/.test(url)) return "anthropic";
  if (/:(stream)?[gG]enerateContent|:countTokens/.test(url)) return "gemini";
  if (/\/responses(\?|$)/.test(url)) return "openai";
  return null;
}

function answer(rec: Recorded, req: IncomingMessage, res: ServerResponse, script: Script): void {
  if (rec.vendor === "anthropic") return anthropic(rec, res, script);
  if (rec.vendor === "gemini") return gemini(rec, req, res, script);
  if (rec.vendor === "openai") return openai(rec, res, script);
  // Anything else (model lists, telemetry): an empty success keeps the programs quiet.
  json(res, 200, req.method === "GET" ? { data: [], models: [] } : {});
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function sse(res: ServerResponse, events: Array<[string | null, unknown]>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** The text of a content value: a string, or the text parts of an array of blocks. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: any) => (typeof c?.text === "string" ? c.text : "")).join("\n");
}

/**
 * The scripted model's choice for a main turn. A command is given once: side requests that also
 * carry the prompt and the tools (codex's title generator) get text.
 */
function plainCommand(c: string | null): string | null {
  return c === null ? null : c.replace(ESCALATE, "");
}

function decide(
  rec: Recorded,
  vendor: Vendor,
  lastUserText: string,
  resultCameBack: boolean,
  script: ShellScript,
  issued: Set<string>,
): string | null {
  rec.main = true;
  if (resultCameBack) return null;
  const command = script({ vendor, text: rec.text, lastUserText });
  if (command === null || issued.has(command)) return null;
  issued.add(command);
  return command;
}

// --- Anthropic messages (claude, and opencode's anthropic provider) --------------------------

function anthropic(rec: Recorded, res: ServerResponse, script: Script): void {
  const b = rec.body ?? {};
  if (rec.url.includes("count_tokens")) return json(res, 200, { input_tokens: 100 });
  const shellTool = ((b.tools ?? []) as Array<{ name?: string }>)
    .map((t) => t.name)
    .find((n) => n === "Bash" || n === "bash");
  // claude 2.1 may put a "system" message after the user's: the turn is the last user message.
  const last = [...((b.messages ?? []) as any[])].reverse().find((m) => m?.role === "user");
  const resultCameBack = Array.isArray(last?.content) && last.content.some((c: any) => c?.type === "tool_result");
  const command = shellTool
    ? plainCommand(decide(rec, "anthropic", textOf(last?.content), resultCameBack, script.run, script.issued))
    : null;
  rec.answered = command ? { shell: command } : { text: REPLY };
  const id = `msg_${rec.n}`;
  const usage = { input_tokens: 10, output_tokens: 5 };
  if (!b.stream) {
    const content = command
      ? [{ type: "tool_use", id: `toolu_${rec.n}`, name: shellTool, input: { command, description: "Run pantheon" } }]
      : [{ type: "text", text: REPLY }];
    return json(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model: b.model,
      content,
      stop_reason: command ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage,
    });
  }
  const block = command
    ? { type: "tool_use", id: `toolu_${rec.n}`, name: shellTool, input: {} }
    : { type: "text", text: "" };
  const delta = command
    ? { type: "input_json_delta", partial_json: JSON.stringify({ command, description: "Run pantheon" }) }
    : { type: "text_delta", text: REPLY };
  sse(res, [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model: b.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: command ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ]);
}

// --- Gemini (gemini-cli with GOOGLE_GEMINI_BASE_URL) ------------------------------------------

/** A minimal value of a JSON schema (gemini's routing classifier asks for JSON). */
function sample(schema: any): unknown {
  const type = String(schema?.type ?? "").toLowerCase();
  if (schema?.enum?.length) return schema.enum[0];
  if (type === "object")
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (type === "integer" || type === "number") return 10;
  if (type === "boolean") return false;
  if (type === "array") return [];
  return "x";
}

function gemini(rec: Recorded, req: IncomingMessage, res: ServerResponse, script: Script): void {
  const b = rec.body ?? {};
  if (rec.url.includes(":countTokens")) return json(res, 200, { totalTokens: 100 });
  const tools = ((b.tools ?? []) as Array<{ functionDeclarations?: Array<{ name: string }> }>).flatMap((t) =>
    (t.functionDeclarations ?? []).map((f) => f.name),
  );
  const contents = (b.contents ?? []) as Array<{ role?: string; parts?: any[] }>;
  const last = contents.at(-1);
  const resultCameBack = Boolean(last?.parts?.some((p) => p?.functionResponse));
  const command = tools.includes("run_shell_command")
    ? plainCommand(
        decide(
          rec,
          "gemini",
          last?.role === "user" ? textOf(last.parts) : "",
          resultCameBack,
          script.run,
          script.issued,
        ),
      )
    : null;
  const schema = b.generationConfig?.responseJsonSchema ?? b.generationConfig?.responseSchema;
  const part = command
    ? { functionCall: { name: "run_shell_command", args: { command, description: "Run pantheon" } } }
    : { text: schema ? JSON.stringify(sample(schema)) : REPLY };
  rec.answered = command ? { shell: command } : { text: String((part as { text?: string }).text) };
  const payload = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "scripted",
  };
  if ((req.url ?? "").includes(":streamGenerateContent")) return sse(res, [[null, payload]]);
  json(res, 200, payload);
}

// --- OpenAI Responses (codex with a model provider's base_url) ---------------------------------

function openai(rec: Recorded, res: ServerResponse, script: Script): void {
  const b = rec.body ?? {};
  const input = (b.input ?? []) as any[];
  const resultCameBack = input.some((i) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output");
  const lastUser = [...input].reverse().find((i) => i?.type === "message" && i?.role === "user");
  // Codex 0.169 offers its shell inside "code mode": a custom `exec` tool whose JavaScript calls
  // tools.exec_command. Older codex offered exec_command/shell as plain functions.
  const nested = input
    .filter((i) => i?.type === "additional_tools")
    .flatMap((i) => i.tools ?? [])
    .flatMap((t: any) => t.tools ?? [t]);
  const exec = nested.find(
    (t: any) => t?.type === "custom" && t?.name === "exec" && String(t?.description ?? "").includes("exec_command"),
  );
  const plain = [...((b.tools ?? []) as any[]), ...nested].find(
    (t: any) => ["exec_command", "shell_command", "shell"].includes(t?.name) && t?.type === "function",
  );
  const decided =
    exec || plain ? decide(rec, "openai", textOf(lastUser?.content), resultCameBack, script.run, script.issued) : null;
  const escalate = decided?.startsWith(ESCALATE) ?? false;
  const command = decided === null ? null : decided.replace(ESCALATE, "");
  const extra = escalate
    ? `, sandbox_permissions: "require_escalated", justification: "The Director asked for this file"`
    : "";
  rec.answered = command ? { shell: command } : { text: REPLY };
  let item: unknown;
  if (command && exec) {
    item = {
      type: "custom_tool_call",
      call_id: `call_${rec.n}`,
      name: "exec",
      input: `const r = await tools.exec_command({ cmd: ${JSON.stringify(command)}${extra} });\ntext(r.output);`,
    };
  } else if (command) {
    const props = plain.parameters?.properties ?? {};
    const args = {
      ...(props.cmd
        ? { cmd: command }
        : props.command?.type === "array"
          ? { command: ["bash", "-lc", command] }
          : { command }),
      ...(escalate
        ? { sandbox_permissions: "require_escalated", justification: "The Director asked for this file" }
        : {}),
    };
    item = { type: "function_call", call_id: `call_${rec.n}`, name: plain.name, arguments: JSON.stringify(args) };
  } else {
    item = { type: "message", role: "assistant", id: `msg_${rec.n}`, content: [{ type: "output_text", text: REPLY }] };
  }
  const usage = {
    input_tokens: 10,
    input_tokens_details: null,
    output_tokens: 5,
    output_tokens_details: null,
    total_tokens: 15,
  };
  sse(res, [
    ["response.created", { type: "response.created", response: { id: `resp_${rec.n}` } }],
    ["response.output_item.done", { type: "response.output_item.done", item }],
    ["response.completed", { type: "response.completed", response: { id: `resp_${rec.n}`, usage } }],
  ]);
}
