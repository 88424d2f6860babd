import { join } from "node:path";
import type { Finding } from "../../domain/state-checks.js";
import { formatAge } from "../../errors.js";
import type { Store } from "../../store/store.js";

const SHOWN = 5;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Doctor: temporary files git left in the object store (a fetch killed or failing on a full
 * disk leaves `objects/pack/tmp_pack_*`), which keep their space until a `git gc` two weeks on.
 */
export async function gitLeftoverFindings(store: Store): Promise<Finding[]> {
  const left = await store.gitLeftovers();
  if (left.length === 0) return [];
  const bytes = left.reduce((n, l) => n + l.bytes, 0);
  const paths = left.map((l) => join(store.commonDir, l.path));
  const more = left.length > SHOWN ? ` and ${left.length - SHOWN} more` : "";
  return [
    {
      severity: "warning",
      code: "W_GIT_LEFTOVERS",
      subject: left[0]!.path,
      message: `git left ${left.length} temporary file${left.length === 1 ? "" : "s"} in the object store (${size(bytes)}, the oldest ${formatAge(left[0]!.ageMs)} old): ${left
        .slice(0, SHOWN)
        .map((l) => l.path)
        .join(", ")}${more}; a fetch or repack was killed or failed (a full disk?)`,
      fix: `when no git command runs in this repository: rm -f ${paths.slice(0, SHOWN).join(" ")}${more ? ` (and the others: git count-objects -v counts them as garbage)` : ""}`,
      fixable: false,
    },
  ];
}
