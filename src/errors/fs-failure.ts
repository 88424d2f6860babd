/** The errno of a full disk (ENOSPC) or of a used-up quota (EDQUOT), or null for any other failure. */
export function diskFull(err: unknown): "ENOSPC" | "EDQUOT" | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" ? code : null;
}

/**
 * Why a file operation on `path` failed, said as a person reads it, and what to do. A full disk
 * or quota says so and names the path: "check permissions" sends the Director after the wrong
 * problem. Any other failure keeps the system's message and the caller's hint.
 * @example
 *   const f = fsFailure(err, tmp, "check permissions on .git/objects");
 *   throw new GitError("E_GIT_WRITE_OBJECT", `Cannot write git object ${oid}: ${f.reason}`, f.hint);
 */
export function fsFailure(err: unknown, path: string, hint: string): { reason: string; hint: string } {
  const where = (err as NodeJS.ErrnoException | null)?.path ?? path;
  switch (diskFull(err)) {
    // The same words as the store's own (store/git/disk-full.ts), which can also name the mount
    // point and the space left: this module does no I/O.
    case "ENOSPC":
    case "EDQUOT":
      return {
        reason: `the disk is full (or the disk quota is used up) where ${where} is`,
        hint: `free space on that file system (df -h '${where}'), then run the command again`,
      };
    default:
      return { reason: err instanceof Error ? err.message : String(err), hint };
  }
}
