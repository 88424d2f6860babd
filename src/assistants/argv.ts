import { UnsafeArgumentError } from "../errors.js";
import { SESSION_ID } from "../domain/record-formats.js";

/**
 * The one way an assistant's argv is made (DESIGN §5, "no value from a record becomes an
 * option"). A value that came from a record, a flag or a file (a session id, a model, a path)
 * goes where no parser can read it as an option, and is refused if it looks like one anyway:
 *
 * - a value with its option is ONE element, `--name=value`: claude's parser (commander), codex's
 *   (clap), gemini's and opencode's (yargs) all take everything after the first `=` as the value,
 *   even `--settings=…` (checked against the real programs, ASSISTANTS.md). Apart, `--resume`
 *   followed by `--settings={…}` made claude read a second option: claude's `--resume` takes an
 *   optional value and skips one that starts with "-";
 * - positionals that may start with "-" (a prompt, codex's session id) come after `--`;
 * - the one positional a parser reads before `--` (opencode's project folder) must not start
 *   with "-".
 *
 * Refused everywhere: an empty value, a NUL (no argument can hold one), an element over 128 KiB
 * (Linux's E2BIG). Values that are not prose (ids, names, paths) also refuse a leading "-" and
 * control characters. Prose (the kickoff, the persona) is ours, with record text fenced inside it.
 */
export class ArgvBuilder {
  private readonly args: string[] = [];
  private ended = false;

  /** A subcommand of the assistant, written in an adapter's source (`resume`). */
  command(word: string): this {
    if (this.args.length > 0 || !/^[a-z][a-z-]*$/.test(word)) throw new Error(`bad subcommand ${word}`);
    this.args.push(word);
    return this;
  }

  /**
   * `--name=value`: an id, a name or a path. `format`: the value's own format (a session id, a
   * model name). `list`: the parser splits the value at commas (gemini's lists).
   */
  option(name: string, value: string, what: string, o: { format?: RegExp; list?: boolean } = {}): this {
    checkValue(value, what, false);
    if (o.format && !o.format.test(value)) throw new UnsafeArgumentError(what, value, `it is not a valid ${what}`);
    if (o.list && value.includes(","))
      throw new UnsafeArgumentError(what, value, "it holds a comma, where the assistant splits its list");
    return this.push(`${optionName(name)}=${value}`);
  }

  /** `--name=text`: prose of ours (a prompt, the persona, a TOML value holding them). */
  text(name: string, value: string, what: string): this {
    checkValue(value, what, true);
    return this.push(`${optionName(name)}=${value}`);
  }

  /** A positional the parser reads among the options (opencode's project folder). */
  positional(value: string, what: string): this {
    checkValue(value, what, false);
    return this.push(value);
  }

  /** `--`, then these positionals: no parser reads an option after it. `prose` as in `text`. */
  afterOptions(values: ReadonlyArray<{ value: string; what: string; prose?: boolean }>): this {
    for (const v of values) checkValue(v.value, v.what, v.prose ?? false);
    this.push("--");
    this.ended = true;
    this.args.push(...values.map((v) => v.value));
    return this;
  }

  build(): string[] {
    return [...this.args];
  }

  private push(arg: string): this {
    // Every option goes before `--`; after it, the assistant would take it as a positional.
    if (this.ended) throw new Error(`option ${arg.slice(0, 40)} after --`);
    this.args.push(arg);
    return this;
  }
}

/** Starts an argv (the program itself is `Launch.command`). */
export function argv(): ArgvBuilder {
  return new ArgvBuilder();
}

/** A session id for a positional slot (after `--`): in its format, or UnsafeArgumentError. */
export function sessionIdArg(id: string): string {
  checkValue(id, "session id", false);
  if (!SESSION_ID.test(id)) throw new UnsafeArgumentError("session id", id, "it is not a valid session id");
  return id;
}

/** Linux refuses one argument over 128 KiB (MAX_ARG_STRLEN) with E2BIG. */
export const MAX_ARG_BYTES = 128 * 1024 - 1;

// C0 and C1 controls and DEL: no id, name or path holds one.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function optionName(name: string): string {
  // Option names are the adapters' own words; a long option, so that `=` binds the value.
  if (!/^--[A-Za-z][A-Za-z0-9-]*$/.test(name)) throw new Error(`bad option name ${name}`);
  return name;
}

/** Throws UnsafeArgumentError when `value` may not be passed as `what`. */
export function checkValue(value: string, what: string, prose: boolean): void {
  if (typeof value !== "string" || value.length === 0)
    throw new UnsafeArgumentError(what, String(value ?? ""), "it is empty");
  if (value.includes("\u0000")) throw new UnsafeArgumentError(what, value, "it holds a NUL character");
  if (Buffer.byteLength(value, "utf8") > MAX_ARG_BYTES)
    throw new UnsafeArgumentError(what, value, "it is longer than one argument may be (128 KiB)");
  if (prose) return;
  if (value.startsWith("-"))
    throw new UnsafeArgumentError(what, value, "it starts with - and could be read as an option");
  if (CONTROL.test(value)) throw new UnsafeArgumentError(what, value, "it holds a control character");
}
