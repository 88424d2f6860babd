import type { Command } from "commander";
import type { Style } from "../../render/paint.js";
import { escapeText } from "../../render/escape.js";
import { pickRemotes, syncWith, type SyncReport } from "../../services/sync-state.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { check, view } from "../view.js";

const ACTIONS: Record<SyncReport["action"], string> = {
  equal: "already in step",
  "fast-forward": "fast-forwarded",
  pushed: "pushed",
  merged: "merged",
  adopted: "adopted its state",
  nothing: "nothing to do",
};

function reportText(r: SyncReport, s: Style): string {
  const lines = [check(s, `Synced with ${r.remote}: ${ACTIONS[r.action]} (${r.received} record${r.received === 1 ? "" : "s"} received, ${r.sent} sent${r.merges > 1 ? `, ${r.merges} merges` : ""})`)];
  for (const n of r.renumbered) lines.push(`  renumbered ${n.from} → ${n.to} (the number was taken on ${r.remote})`);
  for (const d of r.droppedClaims) lines.push(`  ${s.paint.yellow("!")} ${d.message}`);
  for (const c of r.conflicts) lines.push(`  conflict in ${c.record} (${c.fields.join(", ")}): ${r.remote}'s value kept; yours is in its notes`);
  for (const p of r.keptRemote) lines.push(`  ${p} changed on both sides: ${r.remote}'s version kept`);
  for (const u of r.unreadable) lines.push(`  ${u} is unreadable on one side: ${r.remote}'s version kept (pantheon doctor)`);
  for (const p of r.problems) lines.push(`  ${s.paint.yellow("!")} received ${escapeText(p)}`);
  if (r.refspecAdded) lines.push(`  added to remote.${r.remote}.fetch: +refs/coordination/main:refs/coordination/remotes/${r.remote} (git fetch now brings the state too)`);
  return lines.join("\n");
}

export function registerSyncCommand(program: Command, app: App): void {
  examples(
    program
      .command("sync [remote]")
      .description("Share the state with a remote: fetch, merge (three-way), push; default: the branch's upstream, else origin")
      .option("--all", "every remote, one after another")
      .action(run(app, async (remote: string | undefined, o: { all?: boolean }) => {
        const ctx = app.context();
        const reports: SyncReport[] = [];
        for (const r of await pickRemotes(ctx, { ...(remote !== undefined && { remote }), ...(o.all && { all: true }) })) reports.push(await syncWith(ctx, r));
        if (reports.length === 1 && !o.all) return view("sync", reports[0], (s) => reportText(reports[0]!, s));
        return view("syncs", reports, (s) => reports.map((r) => reportText(r, s)).join("\n"));
      })),
    ["pantheon sync", "pantheon sync upstream", "pantheon sync --all --json"],
  );
}
