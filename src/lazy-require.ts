import { createRequire } from "node:module";

declare const require: NodeJS.Require | undefined;

/**
 * `require` for built-ins a command may not need (node:crypto costs ~5 ms to load): the bundle
 * is CommonJS and has one; the ESM sources under vitest make one.
 */
export const lazyRequire: NodeJS.Require = typeof require === "function" ? require : createRequire(import.meta.url);

let crypto: typeof import("node:crypto") | undefined;

/** node:crypto, loaded on first use (ids and object hashes are only needed by mutations). */
export function nodeCrypto(): typeof import("node:crypto") {
  crypto ??= lazyRequire("node:crypto") as typeof import("node:crypto");
  return crypto;
}
