import type { Schemas } from "./record-schemas.js";

let loading: Promise<Schemas> | undefined;

/**
 * The zod schemas, loaded on first use: a read the cache answers never validates anything, so
 * it never pays for loading (and building) the schema library at start-up.
 */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import("./record-schemas.js").then((m) => m.SCHEMAS);
  return loading;
}
