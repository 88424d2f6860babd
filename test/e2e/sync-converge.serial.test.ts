/**
 * Acceptance of issues 5 and 14, tried as a team would (DESIGN §7, sync bar): n clones of one bare
 * origin each create k tasks and `pantheon sync` after each create, all at once (released
 * together from a file barrier, test/e2e/barrier-worker.mjs), as real processes of the built
 * bundle: 8 full clones × 25, and 4 blobless partial clones (`--filter=blob:none`) × 10. No
 * command fails (a sync under contention retries with backoff within its time budget instead of
 * giving up). After a final round of syncs every clone has the same refs/coordination/main, all
 * n×k tasks numbered 1..n×k once each, untouched working trees, clean `git fsck --strict`, and the
 * merges in `git log --graph`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.js";
import { makeOriginAndClones, REF, syncUntilEqual, type Clone } from "../helpers/clones.js";
import { race, type Job } from "../helpers/barrier.js";
import { testEnv } from "../helpers/env.js";

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs first`);
});

/** `git fsck --strict`: exit 0, nothing reported but dangling objects (merges redone after a lost push). */
function expectFsckClean(dir: string): void {
  const r = spawnSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, env: testEnv(), encoding: "utf8" });
  const complaints = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^dangling (commit|tree|blob|tag) [0-9a-f]{40}$/.test(l));
  expect({ dir, status: r.status, complaints }).toEqual({ dir, status: 0, complaints: [] });
}

const title = (clone: number, k: number) => `clone ${clone} task ${k}`;

describe.each([
  { CLONES: 8, PER_CLONE: 25, partial: false, kind: "full clones" },
  { CLONES: 4, PER_CLONE: 10, partial: true, kind: "blobless partial clones" },
])(
  "$CLONES $kind creating $PER_CLONE tasks each and syncing concurrently through one bare origin",
  ({ CLONES, PER_CLONE, partial }) => {
    it("no command fails; converge: one ref value, every task numbered once, every title, untouched trees, fsck clean, merges in the log", async () => {
      const t0 = Date.now();
      const { origin, clones, originRef } = await makeOriginAndClones(CLONES, { bin: true, partial });
      const setupMs = Date.now() - t0;

      const jobs: Job[] = clones.map((c) => ({
        cwd: c.dir,
        env: { NO_COLOR: "1" },
        steps: Array.from({ length: PER_CLONE }, (_, k) => [
          { argv: ["task", "create", "--title", title(c.index, k + 1), "--role", "engineer", "--json"] },
          { argv: ["sync", "--json"] },
        ]).flat(),
      }));
      const t1 = Date.now();
      const runs = await race(jobs);
      const raceMs = Date.now() - t1;

      // The barrier did its job: every worker was released before any had finished.
      expect(Math.max(...runs.map((r) => r.released))).toBeLessThan(Math.min(...runs.map((r) => r.finished)));

      const actions: Record<string, number> = {};
      let renumbered = 0;
      let retried = 0;
      let maxAttempts = 0;
      for (const [w, run] of runs.entries()) {
        expect(run.results).toHaveLength(2 * PER_CLONE);
        for (const [i, s] of run.results.entries()) {
          const what = `clone ${w} step ${i}: pantheon ${s.argv.join(" ")} → exit ${s.exitCode}\n${s.stderr}`;
          if (s.argv[0] === "task") {
            expect(s.exitCode, what).toBe(0);
            expect(JSON.parse(s.stdout).data.title).toBe(title(w, i / 2 + 1));
            continue;
          }
          // Under contention a sync retries with jittered backoff within its time budget: none gives up.
          expect(s.exitCode, what).toBe(0);
          const report = JSON.parse(s.stdout);
          expect(report.kind).toBe("sync");
          actions[report.data.action] = (actions[report.data.action] ?? 0) + 1;
          renumbered += report.data.renumbered.length;
          if (report.data.attempts > 1) retried += 1; // a push rejected because origin moved: fetch, merge again
          maxAttempts = Math.max(maxAttempts, report.data.attempts);
        }
      }
      expect(actions.merged ?? 0, `the syncs really raced (actions: ${JSON.stringify(actions)})`).toBeGreaterThan(0);

      // Final round(s): at most 3, until all four refs are equal.
      const t2 = Date.now();
      const rounds = await syncUntilEqual(clones, 3);
      const finalMs = Date.now() - t2;
      const tip = clones[0]!.ref();
      for (const c of clones) expect(c.ref(), `clone ${c.index}`).toBe(tip);
      expect(originRef()).toBe(tip);

      // All 40 tasks in every clone, unique numbers 1..40, every title created.
      const expectedTitles = clones
        .flatMap((c) => Array.from({ length: PER_CLONE }, (_, k) => title(c.index, k + 1)))
        .sort();
      let reference: string | null = null;
      for (const c of clones) {
        const tasks = await c.json<Array<{ number: number; title: string; formerIds?: string[] }>>(
          ["task", "list"],
          "tasks",
        );
        expect(tasks, `clone ${c.index}`).toHaveLength(CLONES * PER_CLONE);
        expect(tasks.map((t) => t.number).sort((a, b) => a - b)).toEqual(
          Array.from({ length: CLONES * PER_CLONE }, (_, i) => i + 1),
        );
        expect(tasks.map((t) => t.title).sort()).toEqual(expectedTitles);
        const view = JSON.stringify(tasks);
        reference ??= view;
        expect(view, `clone ${c.index} sees the same tasks as clone 0`).toBe(reference);
      }
      const counters = JSON.parse(clones[0]!.git("cat-file", "-p", `${REF}:counters.json`));
      expect(counters.tasks).toBe(CLONES * PER_CLONE);

      // Working trees untouched; repositories sound; the merges are in the history.
      for (const c of clones) c.expectUntouched();
      for (const dir of [origin, ...clones.map((c: Clone) => c.dir)]) expectFsckClean(dir);
      const merges = Number(clones[0]!.git("rev-list", "--merges", "--count", REF).trim());
      expect(merges).toBeGreaterThan(0);
      const graph = clones[0]!.git("log", "--graph", "--oneline", REF);
      expect(graph).toMatch(/^\|\\/m);
      expect(graph).toContain("sync merge with origin");
      const doctor = await clones[CLONES - 1]!.run(["doctor", "--json"]);
      expect(doctor.exitCode, doctor.stderr).toBe(0);

      // What happened, for the record (visible with --reporter=verbose or on failure).
      console.info(
        `sync-converge (${CLONES} × ${PER_CLONE}${partial ? ", partial" : ""}): setup ${setupMs} ms, race ${raceMs} ms, final ${rounds} round(s) ${finalMs} ms; ` +
          `sync actions ${JSON.stringify(actions)}, retried ${retried}, max attempts ${maxAttempts}, renumbered ${renumbered}, merges in history ${merges}`,
      );
    }, 480_000); // 8 × 25 on 2 shared cores: 2-4 minutes
  },
);
