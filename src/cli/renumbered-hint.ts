import { RenumberedError } from "../errors.js";

const NOUN: Record<string, string> = { tasks: "task", epics: "epic", missions: "mission", reviews: "review" };

/** A word of a command line as a shell reads it back. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The hint of a refusal through a renumbered number (DESIGN §1.2) as the command lines that work:
 * the one typed, with the id this clone's renumbered record has now, and with the form that names
 * the number's current owner (or with --force, when only that reaches it). A persona copies a
 * hint's command as it stands, so it must carry the right id; the service cannot build it (it
 * does not see the command line). The word is found by its text: when it is not there exactly
 * once (`PANTHEON_MISSION`, `--mission=1`, the same word twice) the service's hint stands.
 */
export function renumberedHint(e: RenumberedError, argv: readonly string[]): RenumberedError {
  const d = e.data as {
    kind?: string;
    written?: string;
    current?: string;
    renumbered?: string[];
    currentForm?: string | null;
    force?: boolean;
  };
  if (typeof d.written !== "string" || !Array.isArray(d.renumbered)) return e;
  const at = argv.flatMap((a, i) => (a.trim().toUpperCase() === d.written ? [i] : []));
  if (at.length !== 1) return e;
  const line = (word: string, extra: string[] = []) =>
    ["pantheon", ...argv.map((a, i) => (i === at[0] ? word : a)), ...extra].map(shellWord).join(" ");
  const mine = `for this clone's ${NOUN[d.kind ?? ""] ?? "record"}: ${d.renumbered.map((id) => line(id)).join(" or ")}`;
  const theirs = d.currentForm
    ? line(d.currentForm)
    : d.force && !argv.includes("--force")
      ? line(argv[at[0]!]!, ["--force"])
      : null;
  return new RenumberedError(e.message, theirs ? `${mine}; for ${d.current}: ${theirs}` : mine, e.data);
}
