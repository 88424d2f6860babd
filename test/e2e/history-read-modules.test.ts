/**
 * What `pantheon task history` loads beside its answer (issue 23: a history at 100,000 commits
 * within 1.3× `node -e 0`): it checks the blocks of the history index it reads, and that check
 * loaded node:crypto (with OpenSSL, ~3.5 ms and 0.5 MB of heap) for a SHA-1 of each block. Its
 * CRC-32 comes from node:zlib, which reading the packed state loads anyway.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, makeRepo, tempDir } from "../helpers/repo.js";

/** Runs the built CLI as a user does, and lists the built-in modules it loaded. */
function withModules(argv: string[], cwd: string): { stdout: string; modules: string[] } {
  const dir = tempDir();
  const list = join(dir, "modules.json");
  const preload = join(dir, "modules.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\n`,
  );
  const r = spawnSync(process.execPath, ["-r", preload, BIN, ...argv], {
    cwd,
    env: testEnv({ NO_COLOR: "1" }),
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return { stdout: r.stdout, modules: JSON.parse(readFileSync(list, "utf8")) as string[] };
}

describe("task history's start-up", () => {
  it("checks the history index's blocks with CRC-32 (node:zlib), not a SHA-1 from node:crypto, loose or packed", () => {
    const dir = makeRepo();
    const ok = (...argv: string[]) => expect(runBin(argv, { cwd: dir }).exitCode).toBe(0);
    ok("init", "--yes");
    ok("task", "create", "--title", "Task 1", "--role", "engineer");
    ok("task", "note", "1", "halfway");
    ok("task", "history", "1"); // builds the index and saves it
    for (const packed of [false, true]) {
      if (packed) git(dir, "repack", "-adq");
      const { stdout, modules } = withModules(["task", "history", "1"], dir);
      expect(stdout).toMatch(/task\.create\n {4}created ENG-M-0001 as TODO\n.*task\.note\n {4}note: halfway\n$/);
      // isomorphic-git, the object engine (issue 25), loads node:crypto with the core whatever
      // the command reads; what stays true is that the index's own check does not need it.
      expect(modules).toContain("NativeModule zlib");
    }
    const checksum = readFileSync(join(__dirname, "../../src/store/cache/history-checksum.ts"), "utf8");
    const code = checksum.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""); // the comments name what it replaced
    expect(code).not.toMatch(/crypto|createHash/);
    expect(code).toMatch(/zlib\.crc32\(/);
  });
});
