/** What the bundle exports: the launcher (dist/pantheon.js) runs it through V8's code cache. */
export { main } from "./main.js";
export { processIO } from "./io.js";
