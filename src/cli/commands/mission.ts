import type { Command } from "commander";
import { missionHandle, taskId } from "../../domain/ids.js";
import { parseRole } from "../../domain/roles.js";
import {
  missionDetailText,
  missionDetailView,
  missionEndView,
  missionLabel,
  missionTable,
  missionView,
} from "../../render/mission-view.js";
import { emptyRefs } from "../../domain/refs.js";
import { taskSummaryView } from "../../render/task-view.js";
import { taskTable } from "../../render/task-text.js";
import { escapeText } from "../../render/escape.js";
import { endMissionAndWorktree } from "../../services/missions/end-mission.js";
import { listMissions, showMission } from "../../services/missions/read-missions.js";
import { startMission } from "../../services/missions/start-mission.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view } from "../view.js";

export function registerMissionCommands(program: Command, app: App): void {
  const mission = program.command("mission").description("Start, end and list personas' missions (working sessions)");

  examples(
    mission
      .command("start")
      .description("Start a mission: a persona of a role, named from the theme unless --persona is given")
      .requiredOption(
        "--role <role>",
        "administrator, architect, engineer, tester, documentarian, inspector or operator",
      )
      .option("--persona <name>", "the persona's name (any name no ACTIVE mission uses)")
      .option("--objective <text>", "what this session is for")
      .action(
        run(app, async (o: { role: string; persona?: string; objective?: string }) => {
          const m = await startMission(app.context(), {
            role: parseRole(o.role),
            persona: o.persona,
            objective: o.objective,
          });
          const data = missionView(m);
          return view("mission", data, (s) =>
            [
              check(s, `Started ${missionLabel(data)}`),
              `  pass --mission ${missionHandle(m)} on every call, or: export PANTHEON_MISSION=${missionHandle(m)}`,
            ].join("\n"),
          );
        }),
      ),
    [
      "pantheon mission start --role engineer",
      'pantheon mission start --role tester --persona Artemis --objective "cover the login flow"',
      "pantheon mission start --role eng --json | jq -r .data.handle",
    ],
  );

  examples(
    mission
      .command("end [id]")
      .description("End a mission (yours by default); --release returns its UNDERWAY and BLOCKED claims to TODO")
      .option("--force", FORCE_RENUMBERED)
      .option("--summary <text>", "what the mission achieved")
      .option("--release", "release its claims instead of keeping them for a resume")
      .option(
        "--remove-worktree",
        "also remove its worktree and branch when no work would be lost (works on an ENDED mission too; run it from outside that worktree)",
      )
      .action(
        run(
          app,
          async (id: string | undefined, o: { summary?: string; release?: boolean; removeWorktree?: boolean }) => {
            const r = await endMissionAndWorktree(app.context(), {
              id,
              summary: o.summary,
              release: o.release,
              removeWorktree: Boolean(o.removeWorktree),
            });
            const w = r.worktree;
            const data = missionEndView(r);
            return view(
              "mission",
              data,
              (s) =>
                [
                  check(
                    s,
                    `Ended ${missionLabel(data)}${w ? `; removed its worktree ${escapeText(w.removed.path)}` : ""}`,
                  ),
                  ...(w && !w.deletedBranch
                    ? [
                        `  kept branch ${escapeText(w.removed.branch)} (not checked out in the worktree when it was removed)`,
                      ]
                    : []),
                  ...(w?.kept ?? []).map(
                    (k) =>
                      `  kept a copy of the edited ${escapeText(k.file)} (ignored, so in no commit): ${escapeText(k.copy)}`,
                  ),
                  ...r.released.map((t) => `  released ${taskId(t)} → TODO`),
                ].join("\n"),
              r.released.map((t) => taskSummaryView(t, emptyRefs())),
            );
          },
        ),
      ),
    [
      'pantheon mission end --mission MSN-0003 --summary "login done"',
      "pantheon mission end MSN-0003 --release",
      "cd ~/shop && pantheon mission end MSN-0003 --remove-worktree",
    ],
  );

  examples(
    mission
      .command("list")
      .description("List missions")
      .option("--active", "only ACTIVE missions")
      .action(
        run(app, async (o: { active?: boolean }) => {
          const data = (await listMissions(app.context(), { active: Boolean(o.active) })).map(missionView);
          return view("missions", data, (s) => missionTable(data, s));
        }),
      ),
    ["pantheon mission list --active"],
  );

  examples(
    mission
      .command("show <id>")
      .description("Show a mission and the tasks claimed under it")
      .action(
        run(app, async (id: string) => {
          const r = await showMission(app.context(), id);
          const data = missionDetailView(r);
          const { claims, completed } = data;
          return view("mission", data, (s) => {
            const parts = [missionDetailText(data, s)];
            if (claims.length > 0) parts.push("", s.paint.bold("Claims"), taskTable(claims, s));
            if (completed.length > 0) parts.push("", s.paint.bold("Completed"), taskTable(completed, s));
            if (r.commits.length > 0)
              parts.push(
                "",
                s.paint.bold("Code commits"),
                ...r.commits.map((c) => `  ${s.paint.yellow(c.oid.slice(0, 9))} ${escapeText(c.summary)}`),
              );
            return parts.join("\n");
          });
        }),
      ),
    ["pantheon mission show MSN-0003", "pantheon mission show silent-phoenix --json"],
  );
}
