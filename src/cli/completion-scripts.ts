import type { CommandSpec, ValueSpec } from "./completion-spec.js";

/**
 * Shell completion scripts generated from the command tree (completion-spec.ts). Commands,
 * options and enum values are written into the script, so they complete without running
 * anything; ids run `pantheon __complete KIND PREFIX`, which answers from the read cache
 * (complete-fast.ts). bash 3.2+ and zsh (through bashcompinit) share one script; fish has its own.
 */
export type Shell = "bash" | "zsh" | "fish";

/** `words:a b c`, `ids:task-open`, `files`, `dirs`, `remotes`, or `free` (nothing to offer). */
function encode(v: ValueSpec): string {
  if ("words" in v) return `words:${v.words.join(" ")}`;
  if ("ids" in v) return `ids:${v.ids}`;
  if ("files" in v) return "files";
  if ("dirs" in v) return "dirs";
  if ("remotes" in v) return "remotes";
  return "free";
}

/** A case pattern or echo argument, single-quoted for sh (descriptions never go into bash). */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bashBody(specs: CommandSpec[], version: string): string {
  const root = specs.find((s) => s.path === "")!;
  const subs = specs
    .filter((s) => s.subcommands.length > 0)
    .map((s) => `    ${q(s.path)}) echo ${q(s.subcommands.map((c) => c.name).join(" "))} ;;`);
  const opts = specs.map((s) => `    ${q(s.path)}) echo ${q(s.options.flatMap((o) => o.names).join(" "))} ;;`);
  const values = specs.flatMap((s) =>
    s.options
      .filter((o) => o.value)
      .flatMap((o) => o.names.map((n) => `    ${q(`${s.path}|${n}`)}) echo ${q(encode(o.value!))}; return ;;`)),
  );
  const globals = root.options
    .filter((o) => o.value)
    .flatMap((o) => o.names.map((n) => `    ${q(n)}) echo ${q(encode(o.value!))} ;;`));
  const args = specs.flatMap((s) =>
    s.args.map((a, i) =>
      s.variadic && i === s.args.length - 1
        ? `    ${q(`${s.path}|`)}*) echo ${q(encode(a))} ;;`
        : `    ${q(`${s.path}|${i}`)}) echo ${q(encode(a))} ;;`,
    ),
  );
  return `# pantheon ${version}: completion generated from its command tree by \`pantheon completion\`.
_pantheon_subs() {
  case "$1" in
${subs.join("\n")}
  esac
}
_pantheon_opts() {
  case "$1" in
${opts.join("\n")}
  esac
}
# What an option's value is ("" for a flag): the command's own options, then the program's.
_pantheon_value() {
  case "$1|$2" in
${values.join("\n")}
  esac
  case "$2" in
${globals.join("\n")}
  esac
}
_pantheon_arg() {
  case "$1|$2" in
${args.join("\n")}
  esac
}
# Words starting with $2; if none does, the same compared in upper and then lower case.
_pantheon_words() {
  local w cur="$2" pass
  for pass in 1 2 3; do
    for w in $1; do
      case "$w" in "$cur"*) COMPREPLY+=("$w") ;; esac
    done
    [ \${#COMPREPLY[@]} -gt 0 ] || [ -z "$cur" ] && return
    if [ "$pass" = 1 ]; then cur="$(printf '%s' "$2" | tr '[:lower:]' '[:upper:]')"; else cur="$(printf '%s' "$2" | tr '[:upper:]' '[:lower:]')"; fi
  done
}
# A word as the command will read it, into _pantheon_word: \`Jade\\ E\`, \`"Jade E\` and \`'Jade E\` are
# \`Jade E\`; _pantheon_quote is the quote it opens, if any. Never eval: the line is anyone's text.
_pantheon_dequote() {
  local s="$1" c out="" q=""
  case "$s" in \\"*|\\'*) q="\${s:0:1}"; s="\${s:1}" ;; esac
  _pantheon_quote="$q"
  while [ -n "$s" ]; do
    c="\${s:0:1}"; s="\${s:1}"
    if [ "$c" = "\\\\" ] && [ "$q" != "'" ] && [ -n "$s" ]; then c="\${s:0:1}"; s="\${s:1}";
    elif [ -n "$q" ] && [ "$c" = "$q" ]; then q=""; continue; fi
    out="$out$c"
  done
  _pantheon_word="$out"
}
# Candidates, one a line on stdin, into COMPREPLY as the line needs them: escaped (\`Jade\\ Emperor\`),
# or as they are after an opening quote, which the shell closes.
_pantheon_add() {
  local line
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [ -n "$_pantheon_quote" ]; then COMPREPLY+=("$line"); else printf -v line '%q' "$line"; COMPREPLY+=("$line"); fi
  done
}
# Ids from the read cache, of the repository -C names if the line has one.
_pantheon_ids() {
  if [ -n "$_pantheon_C" ]; then command pantheon -C "$_pantheon_C" __complete "$1" "$2" 2>/dev/null; else command pantheon __complete "$1" "$2" 2>/dev/null; fi
}
_pantheon_complete() {
  case "$1" in
    words:*) _pantheon_words "\${1#words:}" "$2" ;;
    ids:*) _pantheon_add < <(_pantheon_ids "\${1#ids:}" "$2") ;;
    files) _pantheon_add < <(compgen -f -- "$2") ;;
    dirs) _pantheon_add < <(compgen -d -- "$2") ;;
    remotes) _pantheon_words "$(git remote 2>/dev/null)" "$2" ;;
  esac
}
# (Not "path": zsh ties that name to PATH.)
_pantheon() {
  local cur cmd="" argc=0 i w spec _pantheon_C="" _pantheon_word _pantheon_quote
  COMPREPLY=()
  # Names may hold spaces (\`Jade Emperor\`): the prefix is matched unquoted, the answer quoted.
  _pantheon_dequote "\${COMP_WORDS[COMP_CWORD]}"
  cur="$_pantheon_word"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --*=*) continue ;;
      -?*)
        spec="$(_pantheon_value "$cmd" "$w")"
        if [ -n "$spec" ]; then
          if [ "$w" = "-C" ] && [ $((i + 1)) -lt "$COMP_CWORD" ]; then _pantheon_dequote "\${COMP_WORDS[i + 1]}"; _pantheon_C="$_pantheon_word"; fi
          i=$((i + 1))
        fi
        continue ;;
    esac
    if [ "$argc" -eq 0 ] && [[ " $(_pantheon_subs "$cmd") " == *" $w "* ]]; then cmd="\${cmd:+$cmd }$w"; else argc=$((argc + 1)); fi
  done
  if [ "$COMP_CWORD" -gt 1 ]; then
    w="\${COMP_WORDS[COMP_CWORD - 1]}"
    case "$w" in
      -?*) spec="$(_pantheon_value "$cmd" "$w")"; if [ -n "$spec" ]; then _pantheon_complete "$spec" "$cur"; return 0; fi ;;
    esac
  fi
  case "$cur" in
    -*) _pantheon_words "$(_pantheon_opts "$cmd") $(_pantheon_opts "")" "$cur"; return 0 ;;
  esac
  if [ "$argc" -eq 0 ] && [ -n "$(_pantheon_subs "$cmd")" ]; then _pantheon_words "$(_pantheon_subs "$cmd")" "$cur"; return 0; fi
  _pantheon_complete "$(_pantheon_arg "$cmd" "$argc")" "$cur"
  return 0
}
`;
}

function bash(specs: CommandSpec[], version: string): string {
  return `# Load with: source <(pantheon completion bash), e.g. in ~/.bashrc, or save it as
# ~/.local/share/bash-completion/completions/pantheon
${bashBody(specs, version)}complete -F _pantheon pantheon
`;
}

function zsh(specs: CommandSpec[], version: string): string {
  return `#compdef pantheon
# Load with: source <(pantheon completion zsh), e.g. in ~/.zshrc after compinit.
# zsh runs the bash completion through bashcompinit (same commands, options, values and ids).
autoload -U +X bashcompinit && bashcompinit
${bashBody(specs, version)}complete -F _pantheon pantheon
`;
}

function fish(specs: CommandSpec[], version: string): string {
  const root = specs.find((s) => s.path === "")!;
  const esc = (s: string) => q(s.replace(/\s+/g, " ").slice(0, 80));
  const values = (v: ValueSpec | null): string => {
    if (!v) return "";
    if ("words" in v) return ` -x -a ${q(v.words.join(" "))}`;
    if ("ids" in v) return ` -x -a ${q(`(__pantheon_ids ${v.ids})`)}`;
    if ("files" in v) return " -r -F";
    if ("dirs" in v) return ` -x -a ${q("(__fish_complete_directories)")}`;
    if ("remotes" in v) return ` -x -a ${q("(git remote 2>/dev/null)")}`;
    return " -x";
  };
  const option = (cond: string, o: CommandSpec["options"][number]) => {
    const flags = o.names
      .map((n) => (n.startsWith("--") ? `-l ${n.slice(2)}` : n.length === 2 ? `-s ${n.slice(1)}` : `-o ${n.slice(1)}`))
      .join(" ");
    return `complete -c pantheon -n ${q(cond)} ${flags} -d ${esc(o.description)}${values(o.value)}`;
  };
  const lines: string[] = [];
  for (const o of root.options) lines.push(option("true", o));
  for (const s of specs) {
    const at = `__pantheon_at ${q(s.path)}`;
    for (const c of s.subcommands)
      lines.push(`complete -c pantheon -n ${q(`${at} 0`)} -a ${q(c.name)} -d ${esc(c.description)}`);
    if (s.path !== "") for (const o of s.options) lines.push(option(`${at}`, o));
    s.args.forEach((a, i) => {
      const v = values(a)
        .replace(/^ -x/, "")
        .replace(/^ -r -F$/, " -F");
      if (v !== "")
        lines.push(`complete -c pantheon -n ${q(`${at} ${i}${s.variadic && i === s.args.length - 1 ? "+" : ""}`)}${v}`);
    });
  }
  const subs = specs
    .filter((s) => s.subcommands.length > 0)
    .map((s) => `    case ${q(s.path)}; printf '%s\\n' ${s.subcommands.map((c) => q(c.name)).join(" ")}`);
  const valued = [...new Set(specs.flatMap((s) => s.options.filter((o) => o.value).flatMap((o) => o.names)))];
  return `# pantheon ${version}: completion generated from its command tree by \`pantheon completion fish\`.
# Load with: pantheon completion fish | source, or save it as ~/.config/fish/completions/pantheon.fish
complete -c pantheon -f
function __pantheon_subs
  switch $argv[1]
${subs.join("\n")}
  end
end
# The command path typed so far and how many arguments follow it: "task claim" 0.
function __pantheon_state
  set -l words (commandline -opc)
  set -l path ""
  set -l argc 0
  set -l skip 0
  for w in $words[2..-1]
    if test $skip = 1
      set skip 0
      continue
    end
    switch $w
      case '--*=*'
        continue
      case ${valued.map(q).join(" ")}
        set skip 1
        continue
      case '-*'
        continue
    end
    if test $argc = 0; and contains -- $w (__pantheon_subs "$path")
      set path (string trim -- "$path $w")
    else
      set argc (math $argc + 1)
    end
  end
  echo $path
  echo $argc
end
# __pantheon_at PATH [N | N+]: the command path is PATH (and the next argument is the Nth, or later).
function __pantheon_at
  set -l state (__pantheon_state)
  test "$state[1]" = "$argv[1]"; or return 1
  test (count $argv) -lt 2; and return 0
  set -l n (string replace '+' '' -- $argv[2])
  if string match -q '*+' -- $argv[2]
    test $state[2] -ge $n
  else
    test $state[2] -eq $n
  end
end
function __pantheon_ids
  set -l dir
  set -l words (commandline -opc)
  set -l i (contains -i -- -C $words)
  and set dir -C $words[(math $i + 1)]
  # The token as typed (Jade\\ E, "Jade E) unescaped: fish quotes the answers itself.
  command pantheon $dir __complete $argv[1] (commandline -ct | string unescape) 2>/dev/null
end
${lines.join("\n")}
`;
}

export function completionScript(shell: Shell, specs: CommandSpec[], version: string): string {
  return shell === "bash" ? bash(specs, version) : shell === "zsh" ? zsh(specs, version) : fish(specs, version);
}
