/**
 * Who holds the sync lock (store/sync/lock-owner.ts): a lock naming a process of this host that
 * is gone is taken over at once, but a pid the system gave to another process since (its start
 * time differs) is not taken for the holder, and a process of another host is never judged.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { currentOwner, ownerGone, parseOwner } from "../../../src/store/sync/lock-owner.js";

describe("the sync lock's owner", () => {
  it("this process is alive; the same pid with another start time is a reused pid, so gone", () => {
    const me = currentOwner();
    expect(me).toMatchObject({ host: hostname(), pid: process.pid });
    expect(ownerGone(me)).toBe(false);
    if (me.start !== null) expect(ownerGone({ ...me, start: String(Number(me.start) + 1) })).toBe(true);
  });

  it("a process that exited is gone; one on another host is never judged", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    expect(ownerGone({ host: hostname(), pid: exited, start: null })).toBe(true);
    expect(ownerGone({ host: `${hostname()}-elsewhere`, pid: exited, start: null })).toBe(false);
  });

  it("reads only what it wrote: an earlier version's bare pid or a torn file names no owner (the age rule applies)", () => {
    expect(parseOwner(`${JSON.stringify(currentOwner())}\n`)).toEqual(currentOwner());
    for (const text of ["12345\n", "", '{"pid":"1","host":"x"}', '{"pid":-1,"host":"x"}'])
      expect(parseOwner(text)).toBeNull();
  });
});
