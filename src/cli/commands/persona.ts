import type { Command } from "commander";
import { parseRole } from "../../domain/roles.js";
import { activityTable, personaEntryView, personaTable, personaView } from "../../render/persona-view.js";
import { listPersonas } from "../../services/views/list-personas.js";
import { personaActivity, suggestPersona } from "../../services/views/persona-activity.js";
import type { App } from "../app.js";
import { examples, run, FORCE_RENUMBERED } from "../command-kit.js";
import { check, view } from "../view.js";
import { addPersona } from "../../services/project/add-persona.js";
import { escapeText } from "../../render/escape.js";

export function registerPersonaCommands(program: Command, app: App): void {
  const persona = program.command("persona").description("Persona names, their roles and activity");

  examples(
    persona
      .command("list")
      .description("Names of the project's theme (and added ones), with missions so far and who is on one now")
      .option("--role <role>", "only this role")
      .action(
        run(app, async (o: { role?: string }) => {
          const entries = await listPersonas(app.context(), {
            role: o.role === undefined ? undefined : parseRole(o.role),
          });
          const data = entries.map(personaEntryView);
          return view("personas", data, (s) => personaTable(data, s));
        }),
      ),
    ["pantheon persona list --role engineer"],
  );
  registerPersonaQuestionCommands(persona, app);
  examples(
    persona
      .command("add <name>")
      .description("Add a persona name of the project's own (offered by mission start and summon)")
      .option("--force", FORCE_RENUMBERED)
      .requiredOption("--role <role>", "its role")
      .option("--bio <text>", "one sentence about it")
      .action(
        run(app, async (name: string, o: { role: string; bio?: string }) => {
          const p = await addPersona(app.context(), {
            name,
            role: parseRole(o.role),
            ...(o.bio !== undefined && { bio: o.bio }),
          });
          const data = personaView(p);
          return view("persona", data, (s) => check(s, `Added persona ${escapeText(p.name)} (${p.role})`));
        }),
      ),
    ['pantheon persona add Brigid --role engineer --bio "Celtic smith and poet"'],
  );
}

export function registerPersonaQuestionCommands(persona: Command, app: App): void {
  examples(
    persona
      .command("suggest <role>")
      .description("The name `mission start --role ROLE` would pick: the least-used free one of the theme")
      .action(
        run(app, async (role: string) => {
          const data = await suggestPersona(app.context(), parseRole(role));
          return view("persona", data, (s) =>
            data.name
              ? `${s.paint.bold(data.name)}${data.bio ? ` — ${data.bio}` : ""}`
              : s.paint.dim(`every ${role} name of ${data.theme} is on a mission; pass --persona NAME`),
          );
        }),
      ),
    ["pantheon persona suggest tester"],
  );

  examples(
    persona
      .command("activity")
      .description("Per persona: missions, completed missions and tasks completed")
      .action(
        run(app, async () => {
          const data = await personaActivity(app.context());
          return view("activity", data, (s) => activityTable(data, s));
        }),
      ),
    ["pantheon persona activity --json"],
  );
}
