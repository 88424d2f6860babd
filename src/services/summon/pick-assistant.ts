import { NotFoundError, UsageError } from "../../errors.js";
import { ASSISTANT_NAMES, type AssistantAdapter } from "../../assistants/adapter.js";
import { adapterFor, ASSISTANTS, isAssistantName } from "../../assistants/registry.js";
import type { Project } from "../../domain/schemas/project.js";
import type { Context } from "../kernel/context.js";

/**
 * The assistant `summon` starts: `--assistant`, else git config `pantheon.assistant`, else the
 * project's `assistant`, else the first one installed. A chosen one that is not installed is an
 * error with its install command (unless `allowMissing`, for --dry-run).
 */
export function pickAssistant(
  ctx: Context,
  o: { flag?: string | undefined; gitConfig?: string | undefined; project: Project; allowMissing: boolean },
): AssistantAdapter {
  const chosen = o.flag ?? o.gitConfig ?? o.project.assistant ?? undefined;
  if (chosen !== undefined) {
    const name = chosen.trim().toLowerCase();
    if (!isAssistantName(name)) {
      const source =
        o.flag !== undefined
          ? "--assistant"
          : o.gitConfig !== undefined
            ? "git config pantheon.assistant"
            : "the project's assistant";
      throw new UsageError(
        `Unknown assistant "${chosen}" (from ${source})`,
        `assistants: ${ASSISTANT_NAMES.join(", ")}`,
      );
    }
    const adapter = adapterFor(name);
    if (!o.allowMissing && !ctx.launcher.which(adapter.binary)) {
      throw new NotFoundError(
        `${adapter.binary} is not installed (no ${adapter.binary} on PATH)`,
        `install it: ${adapter.installHint}`,
        { assistant: name },
      );
    }
    return adapter;
  }
  const installed = ASSISTANTS.find((a) => ctx.launcher.which(a.binary));
  if (installed) return installed;
  if (o.allowMissing) return ASSISTANTS[0]!;
  throw new NotFoundError(
    `No AI assistant is installed (looked for ${ASSISTANTS.map((a) => a.binary).join(", ")} on PATH)`,
    `install one, e.g. ${ASSISTANTS[0]!.installHint}`,
  );
}
