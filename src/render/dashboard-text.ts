import { criteriaProgress } from "../domain/acceptance.js";
import { TASK_STATUSES } from "../domain/task-status.js";
import { bar, percent } from "./bar.js";
import type { DashboardView } from "./dashboard-view.js";
import { displayWidth } from "./escape.js";
import { fitLine, wrapItems } from "./fit-line.js";
import { fitIds } from "./table.js";
import type { Style } from "./paint.js";
import { stateColor } from "./status-view.js";
import { statusColor } from "./task-text.js";

function heading(style: Style, text: string, count?: number): string {
  const label = count === undefined ? text : `${text} (${count})`;
  return style.tty ? style.paint.bold(style.paint.cyan(label)) : `== ${label}`;
}

function time(iso: string): string {
  return iso.replace("T", " ").slice(5, 16);
}

/** The Director's view: who works on what, how far along, what is stuck, what waits for review. */
export function dashboardText(d: DashboardView, style: Style): string {
  const p = style.paint;
  const out: string[] = [];
  const barWidth = Math.max(10, Math.min(40, style.width - 30));
  const scope = [d.role ? `role ${d.role}` : "", d.epic ? d.epic.id : ""].filter(Boolean).join(", ");
  out.push(
    fitLine(style, [
      { text: "Pantheon · ", color: p.bold },
      { text: d.project.name, color: p.bold },
      scope ? ` · ${scope}` : "",
    ]),
  );

  if (d.epic) {
    const e = d.epic;
    out.push(
      "",
      fitLine(style, [{ text: `${e.id} `, color: p.bold }, { text: `[${e.priority}, ${e.status}] ` }, e.title]),
    );
    out.push(
      `  ${bar(e.progress.percent / 100, barWidth, style)} ${e.progress.complete}/${e.progress.total} ${e.progress.percent}%`,
    );
    for (const t of e.tasks)
      out.push(
        fitLine(style, [
          "  ",
          t.id,
          "  ",
          { text: t.status.padEnd(9), color: statusColor(style, t.status) },
          (t.claimedBy && ["UNDERWAY", "REVIEW", "BLOCKED"].includes(t.status) ? t.claimedBy : "").padEnd(14),
          t.title,
        ]),
      );
  }

  out.push("", heading(style, "Active personas", d.missions.length));
  if (d.missions.length === 0) out.push(p.dim("  none: pantheon mission start --role engineer"));
  for (const m of d.missions) {
    const dup = d.duplicateNames.includes(m.persona) ? p.yellow(" (name on two ACTIVE missions)") : "";
    const live = m.live
      ? [
          " ",
          { text: m.live.state === "stalled" ? "STALLED" : m.live.state, color: stateColor(style, m.live.state) },
          { text: ` ${m.live.detail}`, color: p.dim },
        ]
      : [];
    out.push(
      fitLine(style, [
        "  ",
        { text: m.persona.padEnd(14), color: p.bold },
        m.role.padEnd(14),
        `${m.id} ${m.codename}`,
        { text: dup, raw: true },
        ...live,
      ]),
    );
    if (m.live?.next) out.push(p.red(`      stalled: ${m.live.next}`));
    for (const t of m.claims)
      out.push(
        fitLine(style, [
          "      ",
          t.id,
          " ",
          { text: t.status.padEnd(9), color: statusColor(style, t.status) },
          // How far its acceptance criteria are: "1/3 " (none: nothing shown).
          ...(t.acceptance.length > 0 ? [{ text: `${criteriaProgress(t.acceptance)} `, color: p.dim }] : []),
          t.title,
        ]),
      );
  }

  const rate = d.tasks.completionRate;
  out.push("", heading(style, "Tasks", d.tasks.total));
  out.push(`  ${bar(rate, barWidth, style)} ${percent(rate)} complete`);
  out.push(
    ...wrapItems(
      style,
      "  ",
      TASK_STATUSES.map((s) => ({ text: `${s} ${d.tasks.byStatus[s]}`, color: statusColor(style, s) })),
    ),
  );

  if (d.epics.length > 0) {
    out.push("", heading(style, "Epics", d.epics.length));
    for (const e of d.epics)
      out.push(
        fitLine(style, [
          "  ",
          `${e.id} `,
          { text: bar(e.progress.percent / 100, 16, style), raw: true },
          ` ${`${e.progress.complete}/${e.progress.total}`.padStart(5)} ${`${e.progress.percent}%`.padStart(4)} `,
          { text: e.status.padEnd(9), color: e.status === "COMPLETE" ? p.green : undefined },
          e.title,
        ]),
      );
  }

  if (d.blockedTotal > 0) {
    out.push("", heading(style, "Blocked", d.blockedTotal));
    out.push(...blockedLines(d.blocked, style));
    if (d.blockedTotal > d.blocked.length)
      out.push(p.dim(`  … and ${d.blockedTotal - d.blocked.length} more: pantheon task blocked`));
  }

  if (d.reviews.length > 0) {
    out.push("", heading(style, "Pending reviews", d.reviews.length));
    for (const r of d.reviews)
      out.push(fitLine(style, ["  ", r.id, r.task ? ` for ${r.task}` : "", " by ", r.requestedBy, "  ", r.title]));
  }

  if (d.orphanedClaims.length > 0) {
    out.push("", heading(style, "Claims left on ended missions", d.orphanedClaims.length));
    for (const t of d.orphanedClaims) {
      out.push(
        fitLine(style, [
          "  ",
          t.id,
          " ",
          t.status.padEnd(9),
          { text: `${t.claimedBy ?? "?"}${t.endedMission ? ` (${t.endedMission} ENDED)` : ""}` },
        ]),
      );
      out.push(p.dim(`      resume: pantheon task claim ${t.id}`));
    }
  }

  if (d.recent.length > 0) {
    out.push("", heading(style, "Recent activity"));
    for (const c of d.recent) out.push(fitLine(style, ["  ", { text: time(c.date), color: p.dim }, "  ", c.summary]));
  }
  return out.join("\n");
}

/** The blocked tasks, aligned: id, what blocks it (as many ids as leave the title 40 columns), title. */
function blockedLines(tasks: DashboardView["blocked"], style: Style): string[] {
  const idWidth = Math.max(0, ...tasks.map((t) => displayWidth(t.id)));
  const natural = Math.max(0, ...tasks.map((t) => displayWidth(t.blockedBy.join(","))));
  const room = style.tty ? Math.max(13, style.width - (2 + idWidth + 3 + 2) - 40) : natural;
  const fitted = tasks.map((t) => fitIds(t.blockedBy.join(","), Math.min(natural, room)));
  const width = Math.max(0, ...fitted.map(displayWidth));
  return tasks.map((t, i) => {
    const blockers = fitted[i]!;
    return fitLine(style, [
      "  ",
      t.id.padEnd(idWidth),
      " ← ",
      { text: blockers + " ".repeat(Math.max(0, width - displayWidth(blockers))), color: style.paint.red },
      "  ",
      t.title,
    ]);
  });
}
