import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codexHookArgs } from "../../assistants/codex.js";
import { nodeCrypto } from "../../lazy-require.js";
import type { Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";

/** In `<commondir>/pantheon/`: the hash of the codex hooks the Director was told about. */
const TOLD_FILE = "codex-hooks-told";

/**
 * codex runs a hook only once the user has trusted it in its screen (it keeps a hash of each
 * command). Before the first summoned codex session of a clone, and again if Pantheon's hooks
 * change, the Director is told what will be asked and why (DESIGN §5, live status).
 */
export async function tellCodexHookTrust(
  ctx: Context,
  store: Pick<Store, "commonDir" | "writeCloneFile">,
): Promise<boolean> {
  const hash = nodeCrypto().createHash("sha256").update(codexHookArgs("pantheon").join("\n")).digest("hex");
  let told = "";
  try {
    told = readFileSync(join(store.commonDir, "pantheon", TOLD_FILE), "utf8").trim();
  } catch {
    // never told in this clone
  }
  if (told === hash) return false;
  ctx.warn(
    `codex will ask once to trust Pantheon's session hooks (each runs "pantheon hook event codex <event>", the same in every session): choose "Trust all and continue" so that pantheon status shows what this persona is doing`,
  );
  await store.writeCloneFile(TOLD_FILE, `${hash}\n`);
  return true;
}
