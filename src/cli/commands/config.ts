import type { Command } from "commander";
import { changeLine, configSetView, configShowView, configText } from "../../render/config-view.js";
import { setSetting, showSettings } from "../../services/project/project-settings.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { check, view } from "../view.js";

export function registerConfigCommand(program: Command, app: App): void {
  const config = program
    .command("config")
    .description("Show and change the project's settings (project.json on the state ref)");

  examples(
    config
      .command("show")
      .description("The project's settings as the YAML that init --config reads, and this clone's git config settings")
      .action(
        run(app, async () => {
          const data = configShowView(await showSettings(app.context()));
          return view("config", data, (s) => configText(data.settings, data.clone, s));
        }),
      ),
    [
      "pantheon config show",
      "pantheon config show > pantheon.yaml",
      "pantheon config show --json | jq .data.settings.roles",
    ],
  );

  examples(
    config
      .command("set <key> <value>")
      .description(
        "Change one setting (validated as init validates it; one commit). Keys: project.name, project.type, project.description, features.pm_system, features.session_tracking, features.commit_guidelines, features.daemon_naming, customization.personas_theme, customization.variables.NAME, roles, assistant, worktree.copy",
      )
      .action(
        run(app, async (key: string, value: string) => {
          const data = configSetView(await setSetting(app.context(), key, value));
          const { changes, created } = data;
          return view("config", data, (s) => {
            if (changes.length === 0) return check(s, `Nothing to change: ${key} already has that value`);
            const lines = [
              check(s, `Set ${changeLine(changes[0]!)}`),
              ...changes.slice(1).map((c) => `  also ${changeLine(c)}`),
            ];
            if (created.length > 0)
              lines.push(`  created ${created.join(", ")} (commit it: git add ${created.join(" ")})`);
            return lines.join("\n");
          });
        }),
      ),
    [
      "pantheon config set customization.personas_theme constellations",
      "pantheon config set roles engineer,tester,inspector",
      "pantheon config set assistant codex",
      "pantheon config set features.commit_guidelines false",
      'pantheon config set customization.variables.team "Core platform"',
    ],
  );
}
