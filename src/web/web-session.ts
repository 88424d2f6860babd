import { timingSafeEqual } from "node:crypto";
import { randomBytes } from "../random-bytes.js";

/** What a request's URL token (or the `--open` file's form field) gets when offered. */
export type Exchange = { result: "ok"; cookie: string } | { result: "used" | "wrong" };

/** The cookie that holds the session; host-only, so only this server's name ever gets it. */
export const SESSION_COOKIE = "pantheon_session";

/**
 * The one-time token of the printed URL and the session it is exchanged for (DESIGN §4.5). The
 * token opens one browser once: the first request that brings it gets a fresh random session
 * value as a cookie, and the token is spent, so a URL seen later (a terminal's scrollback, a
 * browser's history, a file left behind) opens nothing. Only the session value is ever compared
 * again.
 */
export class WebSession {
  private session: string | null = null;
  private done: () => void = () => {};
  /** Settles when the token has been exchanged (`--open` deletes its file then). */
  readonly exchanged = new Promise<void>((resolve) => (this.done = resolve));

  constructor(private readonly token: string) {}

  exchange(offered: string): Exchange {
    if (!same(offered, this.token)) return { result: "wrong" };
    if (this.session !== null) return { result: "used" };
    this.session = randomBytes(32).toString("hex");
    this.done();
    return { result: "ok", cookie: this.session };
  }

  /** Whether a request's cookie value is this session's (never true before the exchange). */
  holds(value: string | null): boolean {
    return value !== null && this.session !== null && same(value, this.session);
  }
}

/** Compared in constant time: a byte-by-byte early exit would leak a secret's prefix. */
function same(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
