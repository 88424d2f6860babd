import { lazyRequire } from "../../lazy-require.js";

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

/**
 * `git cat-file --batch` over `specs` (object ids, or `<commit>:<path>`-style names): each object
 * git has, in order, as "<oid> <type> <size>" NUL-free header, content, newline; a spec git
 * lacks ("<spec> missing", "ambiguous") is left out. Null when git could not run or failed.
 * Contents are views into one buffer (a batch reads thousands of small objects).
 */
export function catFileBatch(
  gitDir: string,
  specs: readonly string[],
  env: NodeJS.ProcessEnv,
  maxBuffer = 1 << 30,
): BatchObject[] | null {
  const r = (lazyRequire("node:child_process") as typeof import("node:child_process")).spawnSync(
    "git",
    [`--git-dir=${gitDir}`, "cat-file", "--batch"],
    { input: `${specs.join("\n")}\n`, maxBuffer, env: { ...env, GIT_DIR: undefined } },
  );
  if (r.status !== 0 || !r.stdout) return null;
  const out = r.stdout;
  const objects: BatchObject[] = [];
  for (let pos = 0; pos < out.length; ) {
    const nl = out.indexOf(0x0a, pos);
    if (nl < 0) break;
    const [oid, type, size] = out.subarray(pos, nl).toString("latin1").split(" ");
    if (size === undefined || !oid || !type) {
      pos = nl + 1; // "<spec> missing": nothing follows the line
      continue;
    }
    const end = nl + 1 + Number(size);
    if (!Number.isSafeInteger(end) || end > out.length) break;
    objects.push({ oid, type, content: out.subarray(nl + 1, end) });
    pos = end + 1; // the content, then a newline
  }
  return objects;
}
