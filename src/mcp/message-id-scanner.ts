const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
/** Longer than any id a client makes (a number, a uuid): a longer one is not looked for. */
const MAX_ID_BYTES = 200;

/**
 * Finds the top-level `"id"` of one JSON-RPC message fed to it in pieces, keeping none of the
 * rest: a message too large to keep still gets an error answer with its own id, so the client's
 * pending request fails at once instead of waiting for a timeout. The SDK's client writes the id
 * last, after the params, so the whole message is scanned. Works on bytes: every byte of a
 * multi-byte UTF-8 character is >= 0x80, never a quote, a backslash or a bracket.
 */
export class MessageIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key. */
  private expectKey = false;
  /** The top-level key being read (its first bytes: enough to tell "id"). */
  private key: number[] | null = null;
  private lastKey: string | null = null;
  /** The raw bytes of the id's value, while they are read. */
  private value: number[] | null = null;
  private found: string | number | null = null;
  private done = false;

  feed(bytes: Uint8Array): void {
    for (const b of bytes) this.byte(b);
  }

  /** The message's id, when it had a top-level string or number `id`. */
  id(): string | number | null {
    if (this.value) this.finishValue(); // a message cut short after its id's value
    return this.found;
  }

  private byte(b: number): void {
    if (this.inString) {
      this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) this.endString();
      else if (this.key && this.key.length <= 8) this.key.push(b);
      return;
    }
    if (b === QUOTE) {
      this.inString = true;
      this.keep(b);
      if (this.depth === 1 && this.expectKey) {
        this.key = [];
        this.expectKey = false;
      }
    } else if (OPEN.has(b)) {
      this.depth++;
      if (this.depth === 1) this.expectKey = b === 0x7b;
      this.keep(b);
    } else if (CLOSE.has(b)) {
      if (this.depth === 1) this.finishValue();
      else this.keep(b);
      this.depth--;
    } else if (this.depth === 1 && b === COMMA) {
      this.finishValue();
      this.expectKey = true;
    } else if (this.depth === 1 && b === COLON && this.value === null) {
      if (this.lastKey === "id" && !this.done) this.value = [];
      this.lastKey = null;
    } else {
      this.keep(b);
    }
  }

  private endString(): void {
    this.inString = false;
    if (this.key) {
      this.lastKey = Buffer.from(this.key).toString("latin1");
      this.key = null;
    }
  }

  private keep(b: number): void {
    if (this.value === null) return;
    if (this.value.length >= MAX_ID_BYTES) {
      this.value = null; // not an id this server could name: none
      this.done = true;
      return;
    }
    this.value.push(b);
  }

  private finishValue(): void {
    if (this.value === null) return;
    const raw = Buffer.from(this.value).toString("utf8").trim();
    this.value = null;
    this.done = true;
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) this.found = v;
    } catch {
      // not a JSON value: no id
    }
  }
}
