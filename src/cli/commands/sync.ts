import type { Command } from "commander";
import { SyncError } from "../../errors.js";
import type { Style } from "../../render/paint.js";
import { escapeText } from "../../render/escape.js";
import { pickRemotes, syncAll, type SyncFailure } from "../../services/sync/sync-remotes.js";
import { syncWith, type SyncReport } from "../../services/sync/sync-state.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { check, view } from "../view.js";
import { decisionLines, keptLines } from "../../render/decision-lines.js";
import { listRecords } from "../../services/kernel/record-ids.js";
import { remoteRefChangeLines } from "../../domain/remote-ref-notice.js";

const ACTIONS: Record<SyncReport["action"], string> = {
  equal: "already in step",
  "fast-forward": "fast-forwarded",
  pushed: "pushed",
  merged: "merged",
  adopted: "adopted its state",
  "rewrite-accepted": "took its rewritten history",
  restored: "published again what it had lost",
  joined: "joined its history",
  nothing: "nothing to do",
};

/** A project.json value as one short line (it came from the remote: escaped by the caller). */
function shown(v: unknown): string {
  if (v === undefined) return "(none)";
  const text = JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const records = (n: number) => `${n} record${n === 1 ? "" : "s"}`;

/**
 * The counts in the first line. After a rewrite, a count of nothing is left out rather than
 * said as "0": "0 sent" beside records dropped or published again reads as nothing lost.
 */
function counts(r: SyncReport): string {
  if (r.action !== "rewrite-accepted" && r.action !== "restored")
    return `${records(r.received)} received, ${r.sent} sent${r.merges > 1 ? `, ${r.merges} merges` : ""}`;
  // What a restore sends beyond what the remote had lost is this clone's own unpublished work.
  const more = r.sent - r.restored.length;
  const parts = [
    r.dropped.length > 0 ? `${records(r.dropped.length)} dropped` : "",
    r.restored.length > 0 ? `${records(r.restored.length)} published again` : "",
    r.received > 0 ? `${records(r.received)} received` : "",
    r.restored.length > 0
      ? more > 0
        ? `${more} more record${more === 1 ? "" : "s"} sent`
        : ""
      : r.sent > 0
        ? `${records(r.sent)} sent`
        : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no record changed";
}

function reportText(r: SyncReport, s: Style): string {
  const lines = [check(s, `Synced with ${r.remote}: ${ACTIONS[r.action]} (${counts(r)})`)];
  if (r.action === "rewrite-accepted")
    lines.push(
      r.replayed > 0
        ? `  replayed this clone's ${r.replayed} unpublished commit${r.replayed === 1 ? "" : "s"} onto ${r.remote}'s rewritten state as one commit; the old history is no longer on refs/coordination/main`
        : `  took ${r.remote}'s rewritten state as it is (nothing here was unpublished); the old history is no longer on refs/coordination/main`,
    );
  if (r.dropped.length > 0)
    lines.push(`  dropped what ${r.remote} no longer has: ${escapeText(listRecords(r.dropped, 50))}`);
  if (r.restored.length > 0)
    lines.push(`  published again what ${r.remote} had lost: ${escapeText(listRecords(r.restored, 50))}`);
  if (r.action === "joined")
    lines.push(
      `  kept ${r.remote}'s state and re-created this clone's ${r.joined} record${r.joined === 1 ? "" : "s"} on it, renumbered, as one commit (both histories stay in git log refs/coordination/main)`,
    );
  for (const l of decisionLines(r, r.remote, s.paint)) lines.push(`  ${l}`);
  for (const p of r.keptRemote) lines.push(`  ${escapeText(p)} changed on both sides: ${r.remote}'s version kept`);
  for (const c of r.projectChanges)
    lines.push(`  project.json ${escapeText(c.field)}: ${escapeText(shown(c.from))} → ${escapeText(shown(c.to))}`);
  for (const u of r.unreadable)
    lines.push(`  ${u} is unreadable on one side: ${r.remote}'s version kept (pantheon doctor)`);
  for (const p of r.problems) lines.push(`  ${s.paint.yellow("!")} received ${escapeText(p)}`);
  if (r.refspecMigrated)
    lines.push(
      `  replaced the exact fetch refspec of an earlier version (and its tracking ref refs/coordination/remotes/${r.remote}) with the glob below`,
    );
  if (r.remoteRefChange)
    for (const l of remoteRefChangeLines(r.remoteRefChange)) lines.push(`  ${s.paint.yellow("!")} ${l}`);
  if (r.refspecAdded || r.refspecMigrated || r.remoteRefChange)
    lines.push(`  ${escapeText(`remote.${r.remote}.fetch has ${r.refspec}`)} (git fetch now brings the state too)`);
  for (const k of r.earlier) lines.push(...keptLines(k, s.paint).map((l) => `  ${l}`));
  return lines.join("\n");
}

function failureText(f: SyncFailure, s: Style): string {
  return `${s.paint.red("✗")} ${escapeText(f.remote)}: ${escapeText(f.error.message)}`;
}

export function registerSyncCommand(program: Command, app: App): void {
  examples(
    program
      .command("sync [remote]")
      .description(
        "Share the state with a remote: fetch, merge (three-way), push; default: the branch's upstream, else origin",
      )
      .option("--all", "every remote, one after another; a failing remote does not stop the others (exit 3 at the end)")
      .option(
        "--accept-rewrite",
        "the remote rewrote its history: take its state and replay only this clone's unpublished commits onto it",
      )
      .option(
        "--restore",
        "the remote rewrote or rewound its history (a stale git push --mirror): publish again what it lost (this clone's state, merged with anything new there)",
      )
      .option(
        "--adopt-remote",
        "the remote's state and this clone's were started apart: keep the remote's and re-create this clone's records on it (renumbered, one commit)",
      )
      .action(
        run(
          app,
          async (
            remote: string | undefined,
            o: { all?: boolean; acceptRewrite?: boolean; restore?: boolean; adoptRemote?: boolean },
          ) => {
            const ctx = app.context();
            const remotes = await pickRemotes(ctx, {
              ...(remote !== undefined && { remote }),
              ...(o.all && { all: true }),
            });
            const flags = {
              acceptRewrite: Boolean(o.acceptRewrite),
              restore: Boolean(o.restore),
              adoptRemote: Boolean(o.adoptRemote),
            };
            if (!o.all) {
              const r = await syncWith(ctx, remotes[0]!, flags);
              return view("sync", r, (s) => reportText(r, s));
            }
            const results = await syncAll(ctx, remotes, flags);
            const v = view("syncs", results, (s) =>
              results
                .map((r) => (r.action === "failed" ? failureText(r as SyncFailure, s) : reportText(r as SyncReport, s)))
                .join("\n"),
            );
            const failed = results.filter((r): r is SyncFailure => r.action === "failed");
            if (failed.length === 0) return v;
            // Every remote was tried and reported; the exit code says some did not sync.
            app.result = v;
            const list = failed.map((f) => f.remote).join(", ");
            throw Object.assign(
              new SyncError(
                `Could not sync with ${failed.length} of ${results.length} remotes: ${list} (the others synced)`,
                `pantheon sync ${failed[0]!.remote} shows why`,
                { failed: list },
              ),
              { report: true },
            );
          },
        ),
      ),
    [
      "pantheon sync",
      "pantheon sync upstream",
      "pantheon sync --all --json",
      "pantheon sync origin --restore          # after a stale push rewound origin: publish what it lost again",
      "pantheon sync origin --accept-rewrite   # after origin rewrote (purged) its history",
      "pantheon sync origin --adopt-remote     # this clone ran init on its own: join origin's state",
    ],
  );
}
