import type { Readable, Writable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { MessageIdScanner } from "./message-id-scanner.js";

/** The largest message read (the SDK's own stdio limit): a larger one is dropped as it streams. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

type Id = string | number | null;

/**
 * MCP's stdio framing (one JSON-RPC message per line) that survives bad input. The SDK's own
 * transport closes on a message over 10 MiB, so `pantheon mcp` ended with exit 0 and nothing
 * said; a line that is not JSON got no answer. Here such a message gets a JSON-RPC error (with
 * its own id when it has one, so the client's request fails at once), a line on stderr, and the
 * server goes on serving. An oversized line is never held in memory: its bytes are scanned for
 * the id and dropped.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pieces: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line is being dropped. */
  private dropping: MessageIdScanner | null = null;
  private closed = false;

  constructor(
    private readonly log: (message: string) => void,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly limit = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onInputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onInputError);
    this.input.pause();
    this.pieces = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= bytes.length) {
      const nl = bytes.indexOf(0x0a, start);
      this.take(bytes.subarray(start, nl === -1 ? bytes.length : nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  };

  private readonly onEnd = (): void => {
    // A last message without its newline is still answered.
    if (this.size > 0 || this.dropping) this.endLine();
    void this.close();
  };

  private readonly onInputError = (e: Error): void => this.onerror?.(e);

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropping) {
      this.dropping.feed(piece);
      this.size += piece.length;
      return;
    }
    if (this.size + piece.length <= this.limit) {
      this.pieces.push(piece);
      this.size += piece.length;
      return;
    }
    // Over the limit: from now on the line is only scanned for its id.
    this.dropping = new MessageIdScanner();
    for (const p of this.pieces) this.dropping.feed(p);
    this.dropping.feed(piece);
    this.pieces = [];
    this.size += piece.length;
  }

  private endLine(): void {
    const size = this.size;
    const dropped = this.dropping;
    const text = dropped ? "" : Buffer.concat(this.pieces).toString("utf8").replace(/\r$/, "");
    this.pieces = [];
    this.size = 0;
    this.dropping = null;
    if (dropped) {
      const mib = (size / 1024 / 1024).toFixed(1);
      this.refuse(
        dropped.id(),
        -32600,
        `Message of ${mib} MiB refused: pantheon mcp reads at most ${this.limit / 1024 / 1024} MiB per message; send shorter arguments (a long text belongs in a file of the repository, named in a note)`,
      );
      return;
    }
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(null, -32700, "Parse error: a line that is not JSON; send one JSON-RPC message per line");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const v = value as { id?: unknown; method?: unknown };
      const id = typeof v?.id === "string" || typeof v?.id === "number" ? v.id : null;
      this.refuse(id, -32600, "Invalid Request: not a JSON-RPC 2.0 message (jsonrpc, id, method, params)");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** An error answer (id null when the message's own could not be read, as JSON-RPC says), and a line on stderr. */
  private refuse(id: Id, code: number, message: string): void {
    this.log(`pantheon mcp: ${message}; still serving`);
    void this.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once("drain", resolve);
    });
  }
}
