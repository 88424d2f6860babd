declare const require: NodeJS.Require | undefined;

/**
 * `require` for built-ins a command may not need (node:crypto costs ~5 ms to load): the bundle
 * is CommonJS and has one; the ESM sources under vitest make one.
 */
export const lazyRequire: NodeJS.Require =
  typeof require === "function"
    ? require
    : // Not imported at the top: node:module costs ~0.3 ms of start-up, and the bundle never needs it.
      (((id: string) =>
        (esmRequire ??= process.getBuiltinModule("node:module").createRequire(import.meta.url))(id)) as NodeJS.Require);

let esmRequire: NodeJS.Require | undefined;

let crypto: typeof import("node:crypto") | undefined;

/** node:crypto, loaded on first use (ids and object hashes are only needed by mutations). */
export function nodeCrypto(): typeof import("node:crypto") {
  crypto ??= lazyRequire("node:crypto") as typeof import("node:crypto");
  return crypto;
}
