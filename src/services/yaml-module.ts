import type * as Yaml from "yaml";

/**
 * Loads `yaml` on demand (start-up time matters). Its Node entry is CommonJS, so in the ESM
 * bundle the functions may sit on `default`; normalise that here once.
 */
export async function loadYaml(): Promise<typeof Yaml> {
  const mod = (await import("yaml")) as typeof Yaml & { default?: typeof Yaml };
  return typeof mod.parse === "function" ? mod : mod.default!;
}
