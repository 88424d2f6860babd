import type { Command } from "commander";
import { AssistantExit, CancelledError, UsageError } from "../../errors.js";
import { missionHandle } from "../../domain/ids.js";
import { ASSISTANT_NAMES } from "../../domain/assistant-names.js";
import { parseRole, ROLES, type Role } from "../../domain/roles.js";
import { missionLabel, missionView } from "../../render/mission-view.js";
import { summon, type SummonPlan } from "../../services/summon/summon.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { isInteractive } from "../interactive.js";
import { check, view } from "../view.js";

interface SummonOptions {
  persona?: string;
  task?: string;
  objective?: string;
  assistant?: string;
  model?: string;
  template?: string;
  worktree?: boolean;
  branch?: string;
  dryRun?: boolean;
  resume?: string;
}

/** Asks for a role on a terminal (only after summon knows the assistant is installed). */
async function askRole(): Promise<Role> {
  const { select } = await import("@inquirer/prompts");
  try {
    return await select({ message: "Which persona role?", choices: ROLES.map((r) => ({ value: r, name: r })) });
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") throw new CancelledError();
    throw e;
  }
}

export function registerSummonCommand(program: Command, app: App): void {
  examples(
    program
      .command("summon [role]")
      .description(
        "Start an AI assistant as a persona on a recorded mission; the mission ends with the session (exit, terminal closed, SIGTERM)",
      )
      .option("--force", FORCE_RENUMBERED)
      .option(
        "--persona <name>",
        "the persona's name (default: the least-used free name of the theme; the role's own with features.daemon_naming off)",
      )
      .option("--task <id>", "claim this task (or resume its claim) for the mission")
      .option("--objective <text>", "what this session is for")
      .option(
        "--assistant <name>",
        `${ASSISTANT_NAMES.slice(0, -1).join(", ")} or ${ASSISTANT_NAMES.at(-1)} (default: git config pantheon.assistant, the project's, or the first installed)`,
      )
      .option("--model <model>", "the assistant's model")
      .option("--template <variant>", "use .pantheon/personas/<role>-<variant>.md")
      .option(
        "--worktree",
        "work in a new linked worktree and branch of its own; its set-up command (.pantheon/worktree-setup or git config pantheon.worktreeSetup) runs once you confirm it",
      )
      .option("--branch <name>", "the worktree's branch (default pantheon/<persona>-<mission number>)")
      .option(
        "--resume <mission>",
        "reopen that mission's assistant session (the same assistant and session id) under it, or under a new mission of its persona when it ENDED",
      )
      .option("--dry-run", "print the argv and environment; start nothing, record nothing")
      .action(
        run(app, async (roleArg: string | undefined, o: SummonOptions) => {
          const role = roleArg !== undefined ? parseRole(roleArg) : undefined;
          if (o.resume !== undefined) {
            const clash =
              (["persona", "task", "objective", "assistant", "template", "worktree", "branch"] as const).find(
                (k) => o[k] !== undefined,
              ) ?? (role !== undefined ? "role" : undefined);
            if (clash)
              throw new UsageError(
                `--resume reopens a mission as it was; it takes no ${clash === "role" ? "ROLE" : `--${clash}`}`,
                `pantheon summon --resume ${o.resume}`,
              );
          }
          if (o.branch !== undefined && !o.worktree)
            throw new UsageError(
              "--branch names the worktree's branch; add --worktree",
              `pantheon summon ${role ?? "ROLE"} --worktree --branch ${o.branch}`,
            );
          if (role === undefined && o.resume === undefined && !isInteractive(app.io))
            throw new UsageError(
              "summon needs a role, and there is no terminal to ask",
              `pantheon summon engineer (roles: ${ROLES.join(", ")})`,
            );
          const onLaunch = (plan: SummonPlan) => {
            // The one line before the assistant takes the screen: which mission, which persona.
            if (!app.globals.quiet)
              app.io.stderr.write(
                `${check(app.style(app.io.stderr), `Started ${missionLabel(missionView(plan.mission))}, launching ${plan.assistant}`)}\n`,
              );
          };
          const r = await summon(app.context(), { role, askRole: () => askRole(), onLaunch, ...o });
          const m = missionView(r.plan.mission);
          const data = {
            dryRun: Boolean(o.dryRun),
            assistant: r.plan.assistant,
            mission: m,
            command: r.plan.launch.command,
            args: r.plan.launch.args,
            env: r.plan.launch.env,
            cwd: r.plan.cwd,
            personaFile: r.plan.personaFile,
            template: r.plan.template,
            exitCode: r.exitCode,
            resume: r.resume,
          };
          const v = view("summon", data, (s) =>
            o.dryRun
              ? [
                  check(
                    s,
                    `Dry run: would start ${r.plan.assistant} as ${m.persona} (${m.role}); nothing was recorded`,
                  ),
                  `  cwd:      ${r.plan.cwd}`,
                  `  persona:  ${r.plan.personaFile} (from ${r.plan.template}; the next dry run of ${m.role} rewrites it)`,
                  `  argv:     ${JSON.stringify([r.plan.launch.command, ...r.plan.launch.args])}`,
                  `  env:      ${Object.entries(r.plan.launch.env)
                    .map(([k, val]) => `${k}=${val.length > 60 ? `${val.slice(0, 57)}...` : val}`)
                    .join(" ")}`,
                ].join("\n")
              : [
                  check(
                    s,
                    `${m.persona}'s mission ${missionHandle(r.plan.mission)} ended when ${r.received === "SIGHUP" ? "the terminal was closed" : r.received === "SIGTERM" ? "summon was stopped" : `${r.plan.assistant} exited`} (code ${r.exitCode})`,
                  ),
                  // After the assistant's own resume line, which reopens the session without the persona.
                  ...(r.resume ? [`  resume it as ${m.persona}: ${r.resume}`] : []),
                ].join("\n"),
          );
          if (r.exitCode !== null && r.exitCode !== 0) {
            app.result = v;
            throw Object.assign(new AssistantExit(r.exitCode), { report: true });
          }
          return v;
        }),
      ),
    [
      "pantheon summon engineer",
      "pantheon summon tester --task TST-M-0003 --assistant codex",
      "pantheon summon architect --worktree --dry-run",
      "pantheon summon --resume MSN-0003",
    ],
  );
}
