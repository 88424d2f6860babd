import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { markSession, readLiveFile, recordHookEvent, sweepLiveFiles } from "../../../src/services/live/live-events.js";
import { readSummonRecords, removeSummonRecord, writeSummonRecord } from "../../../src/services/live/summon-record.js";
import { BIN } from "../../helpers/cli.js";
import { testEnv } from "../../helpers/env.js";
import { makeRepo, tempDir } from "../../helpers/repo.js";

/**
 * `<commondir>/pantheon/live/` may be written by anyone who can write the git dir, a persona in
 * its sandbox included (codex gets `pantheon/` as a writable root), while summon and the session
 * hooks write there from outside it. A symbolic link (or a FIFO) planted there must never make
 * Pantheon write, truncate, chmod or remove a file elsewhere, nor hang on a read.
 */

const UID = "a1b2c3d4e5f60718";

function setup() {
  const dir = makeRepo();
  const commonDir = join(dir, ".git");
  const live = join(commonDir, "pantheon", "live");
  const outside = tempDir("pantheon-outside-");
  const victim = join(outside, "victim.txt");
  writeFileSync(victim, "precious\n");
  chmodSync(victim, 0o600);
  const record = () =>
    writeSummonRecord(
      commonDir,
      { uid: UID },
      { mission: "MSN-0001", assistant: "claude", sessionId: null, since: "2026-01-01T00:00:00.000Z" },
    );
  const untouched = () => {
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(statSync(victim).mode & 0o777).toBe(0o600);
  };
  return { dir, commonDir, live, outside, victim, record, untouched };
}

const event = (commonDir: string, name = "PreToolUse") =>
  recordHookEvent({
    commonDir,
    env: { PANTHEON_LIVE: UID },
    event: name,
    stdin: JSON.stringify({ tool_name: "Bash" }),
    now: new Date("2026-01-01T00:01:00.000Z"),
    notifySetting: () => "none",
    spawnDetached: () => {},
  });

describe("links planted in the live folder", () => {
  it("summon's record is never written through a link at its temporary name, nor into a folder a link stands for", () => {
    const x = setup();
    x.record();
    // The temporary name used to be <record>.tmp-<pid>: a name anyone could guess.
    symlinkSync(x.victim, join(x.live, `${UID}.json.tmp-${process.pid}`));
    x.record();
    x.untouched();
    expect(readSummonRecords(x.commonDir).get(UID)?.pid).toBe(process.pid);
    // The live folder itself replaced by a link to a folder elsewhere: replaced back by a folder.
    rmSync(x.live, { recursive: true });
    symlinkSync(x.outside, x.live);
    x.record();
    expect(lstatSync(x.live).isDirectory()).toBe(true);
    expect(readdirSync(x.outside)).toEqual(["victim.txt"]);
  });

  it("a hook event and summon's own marks never write, chmod or read through a link (temporary name, live file, summon record)", () => {
    const x = setup();
    x.record();
    symlinkSync(x.victim, join(x.live, `${UID}.state.tmp-${process.pid}`));
    expect(event(x.commonDir)).toMatchObject({ recorded: { state: "working" } });
    x.untouched();
    markSession(x.commonDir, UID, "ended", "summon is over", new Date("2026-01-01T00:02:00.000Z"));
    x.untouched();
    expect(readLiveFile(x.commonDir, UID)?.state).toBe("ended");
    // The live file as a link: replaced by a file, never written through, and not read as one.
    rmSync(join(x.live, `${UID}.state`));
    writeFileSync(join(x.outside, "forged.state"), readFileSync(join(x.live, `${UID}.json`)));
    symlinkSync(x.victim, join(x.live, `${UID}.state`));
    expect(readLiveFile(x.commonDir, UID)).toBeNull();
    expect(event(x.commonDir)).toMatchObject({ recorded: { state: "working" } });
    expect(lstatSync(join(x.live, `${UID}.state`)).isFile()).toBe(true);
    x.untouched();
    // The summon record as a link to a file elsewhere: not a record.
    rmSync(join(x.live, `${UID}.json`));
    symlinkSync(join(x.outside, "forged.state"), join(x.live, `${UID}.json`));
    expect(event(x.commonDir)).toEqual({ ignored: "no summon record for this session" });
    expect(readSummonRecords(x.commonDir).size).toBe(0);
  });

  it("removals never go through a link standing for the live folder", () => {
    const x = setup();
    x.record();
    rmSync(x.live, { recursive: true });
    symlinkSync(x.outside, x.live);
    writeFileSync(join(x.outside, `${UID}.json`), "{}\n");
    writeFileSync(join(x.outside, `${UID}.state`), "{}\n");
    removeSummonRecord(x.commonDir, UID);
    sweepLiveFiles(x.commonDir, [UID]);
    expect(readdirSync(x.outside).sort()).toEqual([`${UID}.json`, `${UID}.state`, "victim.txt"]);
    expect(event(x.commonDir)).toMatchObject({ ignored: expect.stringContaining("no live folder") });
  });
});

describe("links planted in the live folder: the hook as an assistant runs it (the bundle)", () => {
  const hook = (dir: string) =>
    spawnSync(process.execPath, [BIN, "hook", "event", "claude", "PreToolUse"], {
      cwd: dir,
      env: testEnv({ PANTHEON_LIVE: UID }),
      input: "{}",
      encoding: "utf8",
      timeout: 20_000,
    });

  it("hook.log as a link (to a file past the log's size limit) is neither appended to nor emptied; a FIFO as the live file does not hold the hook", () => {
    const x = setup();
    x.record();
    const big = `${"precious ".repeat(10_000)}\n`;
    writeFileSync(x.victim, big);
    symlinkSync(x.victim, join(x.live, "hook.log"));
    // The live file cannot be written (a folder in its place): the hook logs the failure.
    mkdirSync(join(x.live, `${UID}.state`, "blocker"), { recursive: true });
    expect(hook(x.dir)).toMatchObject({ status: 0, stdout: "", stderr: "" });
    expect(readFileSync(x.victim, "utf8")).toBe(big);
    rmSync(join(x.live, `${UID}.state`), { recursive: true });
    execFileSync("mkfifo", [join(x.live, `${UID}.state`)]);
    const r = hook(x.dir);
    expect(r.error, "the hook returned").toBeUndefined();
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "" });
    expect(lstatSync(join(x.live, `${UID}.state`)).isFile(), "the FIFO replaced by the live file").toBe(true);
    expect(existsSync(join(x.live, "hook.log")) && lstatSync(join(x.live, "hook.log")).isSymbolicLink()).toBe(true);
  });
});
