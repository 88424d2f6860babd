import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Finds templates/ beside a bundle (dist/) or the sources (src/<layer>/): themes, personas, planning. */
export function findTemplatesDir(): string {
  // The bundles are CommonJS; the sources under vitest are ESM.
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (const rel of ["../templates", "../../templates"]) {
    const dir = resolve(here, rel);
    if (existsSync(`${dir}/themes`)) return dir;
  }
  return resolve(here, "../templates");
}
