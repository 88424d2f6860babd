import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface OpenedBrowser {
  /** Whether the system's opener could be started. */
  started: boolean;
  /** Removes the sign-in file (after the exchange, or when the server stops); safe to call twice. */
  remove(): void;
}

/**
 * `--open`: the system's opener gets the path of a sign-in file, never the URL: a process's argv
 * is readable by every user of the machine (`ps`), and the URL holds the one-time token. The file
 * (0600, in a 0700 folder of its own, as Jupyter does) posts the token to the server's `/`, which
 * answers with the session cookie; nothing in it is passed through a shell. A machine without an
 * opener only misses the convenience.
 */
export async function openBrowser(
  server: { url: string },
  platform: NodeJS.Platform = process.platform,
): Promise<OpenedBrowser> {
  const { file, remove } = writeSignInFile(server);
  const [cmd, args] =
    platform === "darwin" ? ["open", [file]] : platform === "win32" ? ["explorer.exe", [file]] : ["xdg-open", [file]];
  const started = await new Promise<boolean>((resolve) => {
    try {
      const child = spawn(cmd, args, { stdio: "ignore", detached: true, shell: false });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
  if (!started) remove();
  return { started, remove };
}

/** Writes the sign-in file of a server's URL (0600, in a 0700 folder of its own). */
export function writeSignInFile(server: { url: string }): { file: string; remove(): void } {
  const url = new URL(server.url);
  const token = url.searchParams.get("token") ?? "";
  // The origin and the token are ours (a host name of hex digits, a port, hex): checked, so no
  // escaping is needed in the page; none of them is record text.
  if (!/^[0-9a-f]{1,128}$/.test(token) || !/^http:\/\/[0-9a-z.-]+:\d+$/.test(url.origin))
    throw new Error(`not a pantheon web URL: ${url.origin}`);
  const dir = mkdtempSync(join(tmpdir(), "pantheon-web-"));
  const file = join(dir, "open.html");
  writeFileSync(file, signInPage(url.origin, token), { mode: 0o600, flag: "wx" });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A form that posts itself to the server (a button if scripts are off in file pages). */
function signInPage(origin: string, token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pantheon</title></head>
<body>
<form id="sign-in" method="post" action="${origin}/">
<input type="hidden" name="token" value="${token}">
<noscript><button type="submit">Open the Pantheon dashboard</button></noscript>
</form>
<script>document.getElementById("sign-in").submit();</script>
</body></html>
`;
}
