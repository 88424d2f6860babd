/** The server's error document, as `--json` prints it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint: string | null,
  ) {
    super(message);
  }
}

/** GET /api/… and the `data` of its document; the cookie carries the token. */
export async function get<T>(path: string): Promise<T> {
  const res = await fetch(`/api/${path}`, { credentials: "same-origin", cache: "no-store" });
  const doc = (await res.json()) as { data?: T; error?: { message: string; hint: string | null } };
  if (!res.ok || doc.error)
    throw new ApiError(res.status, doc.error?.message ?? `HTTP ${res.status}`, doc.error?.hint ?? null);
  return doc.data as T;
}

export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s === "" ? "" : `?${s}`;
}
