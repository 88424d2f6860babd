import type { ServerResponse } from "node:http";

/**
 * On every answer: scripts, styles and connections only from this server (no inline script, so
 * record text can never run), never framed, never sniffed into another type, never cached, and
 * no Referer carrying the token elsewhere.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** Sends a body with the security headers; HEAD gets the headers only. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  const data = typeof body === "string" ? Buffer.from(body) : body;
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": String(data.length), ...extra });
  res.end(res.req.method === "HEAD" ? undefined : data);
}

export function sendJson(res: ServerResponse, status: number, doc: unknown, extra: Record<string, string> = {}): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(doc), extra);
}

/** The error document of `--json` (`{"error":{code,message,hint}}`). */
export function sendError(
  res: ServerResponse,
  status: number,
  e: { code: string; message: string; hint?: string | undefined },
  extra: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { code: e.code, message: e.message, hint: e.hint ?? null } }, extra);
}
