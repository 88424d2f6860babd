// Smart HTTP for the multi-clone soak: `node scripts/soak-http-backend.mjs PROJECT_ROOT` serves
// the bare repositories under PROJECT_ROOT on 127.0.0.1 (a random port, printed as its first
// stdout line: "listening PORT") by running git's own `git http-backend` as a CGI program per
// request, as a web server would (GIT_PROJECT_ROOT, GIT_HTTP_EXPORT_ALL; pushes need
// http.receivepack=true in the repository, set by the soak). A process of its own, so the
// soak's synchronous work never stalls it. Ends on SIGTERM or when its parent's stdin closes.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

const root = process.argv[2];

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: "1",
    GATEWAY_INTERFACE: "CGI/1.1",
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
    SERVER_SOFTWARE: "pantheon-soak",
    REQUEST_METHOD: req.method ?? "GET",
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ""),
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    CONTENT_TYPE: req.headers["content-type"] ?? "",
  };
  // A chunked body has no length: http-backend then reads to the end of its stdin.
  if (req.headers["content-length"] !== undefined) env.CONTENT_LENGTH = req.headers["content-length"];
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === "string") env[`HTTP_${k.toUpperCase().replace(/-/g, "_")}`] = v;
  // Protocol v2 is asked for in a header; http-backend reads it from GIT_PROTOCOL.
  if (typeof req.headers["git-protocol"] === "string") env.GIT_PROTOCOL = req.headers["git-protocol"];

  const cgi = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "pipe"] });
  req.pipe(cgi.stdin);
  cgi.stdin.on("error", () => undefined);
  let head = Buffer.alloc(0);
  let started = false;
  let errors = "";
  cgi.stderr.on("data", (d) => (errors += d));
  cgi.stdout.on("data", (chunk) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf("\r\n\r\n");
    const lf = head.indexOf("\n\n");
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
    if (end < 0) return;
    const sep = end === crlf ? 4 : 2;
    let status = 200;
    for (const line of head.subarray(0, end).toString("latin1").split(/\r?\n/)) {
      const i = line.indexOf(":");
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    started = true;
    const rest = head.subarray(end + sep);
    if (rest.length > 0) res.write(rest);
  });
  cgi.on("close", (code) => {
    if (!started) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`git http-backend exited ${code}: ${errors.slice(0, 500)}`);
    } else res.end();
  });
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
