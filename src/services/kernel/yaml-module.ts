import type * as Yaml from "yaml";
import { UsageError } from "../../errors.js";

/**
 * Loads `yaml` on demand (start-up time matters). Its Node entry is CommonJS, so in the ESM
 * bundle the functions may sit on `default`; normalise that here once.
 */
export async function loadYaml(): Promise<typeof Yaml> {
  const mod = (await import("yaml")) as typeof Yaml & { default?: typeof Yaml };
  return typeof mod.parse === "function" ? mod : mod.default!;
}

/** Aliases a real file needs are few; a "billion laughs" file needs thousands to expand. */
const MAX_ALIASES = 100;

/**
 * Parses a user's YAML file (`task import`, `init --config`) into plain values, or throws a
 * UsageError naming the file: a syntax error with its line, or an alias bomb, which yaml
 * refuses with a ReferenceError that must not be reported as a bug of ours.
 */
export async function parseYamlFile(text: string, file: string, hint: string): Promise<unknown> {
  const { parseDocument } = await loadYaml();
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const line = err.linePos?.[0]?.line;
    throw new UsageError(
      `Invalid YAML in ${file}${line ? ` at line ${line}` : ""}: ${err.message.split("\n")[0]}`,
      hint,
    );
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    if (e instanceof ReferenceError || /alias/i.test((e as Error).message)) {
      throw new UsageError(
        `${file} expands too many YAML aliases (${(e as Error).message.split("\n")[0]})`,
        "write the values out instead of repeating aliases (*name)",
      );
    }
    throw e;
  }
}
