import type { ServerResponse } from "node:http";
import { SECURITY_HEADERS } from "./web-headers.js";

/** A comment line now and then keeps proxies and the browser from dropping an idle stream. */
const KEEPALIVE_MS = 15_000;

/** The pages listening for changes (server-sent events); `tell` reaches each at once. */
export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  private readonly keepalive = setInterval(() => this.write(":\n\n"), KEEPALIVE_MS);

  constructor() {
    this.keepalive.unref();
  }

  /** Answers the request with the stream; the first event carries the current version. */
  open(res: ServerResponse, version: string): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "text/event-stream; charset=utf-8",
      Connection: "keep-alive",
    });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ version })}\n\n`);
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  tell(version: string): void {
    this.write(`event: change\ndata: ${JSON.stringify({ version })}\n\n`);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.keepalive);
    for (const c of this.clients) c.end();
    this.clients.clear();
  }

  private write(text: string): void {
    for (const c of this.clients) c.write(text);
  }
}
