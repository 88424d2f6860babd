import type { Command } from "commander";
import { missionId } from "../../domain/ids.js";
import { parseRole } from "../../domain/roles.js";
import { table } from "../../render/table.js";
import { listPersonas } from "../../services/list-personas.js";
import type { App } from "../app.js";
import { examples, run } from "../command-kit.js";
import { view } from "../view.js";

export function registerPersonaCommands(program: Command, app: App): void {
  const persona = program.command("persona").description("Persona names, their roles and activity");

  examples(
    persona
      .command("list")
      .description("Names of the project's theme (and added ones), with missions so far and who is on one now")
      .option("--role <role>", "only this role")
      .action(run(app, async (o: { role?: string }) => {
        const entries = await listPersonas(app.context(), { role: o.role === undefined ? undefined : parseRole(o.role) });
        const data = entries.map((e) => ({ name: e.name, role: e.role, source: e.source, bio: e.bio, missions: e.missions, activeMission: e.active ? missionId(e.active.number) : null }));
        return view("personas", data, (s) =>
          table(
            [{ header: "NAME" }, { header: "ROLE" }, { header: "MISSIONS" }, { header: "ACTIVE", color: (v) => (v ? s.paint.green : undefined) }, { header: "BIO", flex: true }],
            data.map((d) => [d.name, d.role, String(d.missions), d.activeMission ?? "", d.bio]),
            s,
          ),
        );
      })),
    ["pantheon persona list --role engineer"],
  );
}
