import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PantheonError } from "../errors.js";

export interface Asset {
  type: string;
  body: Buffer;
}

const FILES: Record<string, string> = {
  "/": "index.html",
  "/app.js": "app.js",
  "/app.css": "app.css",
};
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/** dist/web beside the bundle (dist/), or beside the sources (src/web) under vitest. */
export function findAssetsDir(): string {
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (const rel of ["web", "../../dist/web"]) {
    const dir = resolve(here, rel);
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  throw new PantheonError(
    "E_WEB_ASSETS",
    "The web dashboard's page is not built",
    "npm run build (it writes dist/web/)",
  );
}

/** The page, its script and its style, read once: served from memory, nothing from a CDN. */
export function loadAssets(dir = findAssetsDir()): Map<string, Asset> {
  const out = new Map<string, Asset>();
  for (const [path, file] of Object.entries(FILES))
    out.set(path, { type: TYPES[file.split(".").pop()!]!, body: readFileSync(`${dir}/${file}`) });
  return out;
}
