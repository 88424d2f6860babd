/**
 * The line that marks a project file Pantheon wrote. `init --force` rewrites a file only when it
 * carries the mark (or is exactly what Pantheon writes): a user's own `.claude/commands/summon.md`
 * has none, so it is never overwritten. Deleting the line makes a file the user's own.
 */
export const GENERATED = "pantheon:generated";

const TEXT = `${GENERATED} (pantheon init --force rewrites this file; delete this line to keep it as your own)`;

/**
 * The content with the mark in a comment the assistant never shows its model: a YAML comment
 * inside Markdown frontmatter, a TOML comment, else an HTML comment on the first line. A format
 * without comments (JSON) is returned as it is, and is then known by its content alone.
 */
export function withGeneratedMark(path: string, content: string): string {
  if (path.endsWith(".toml")) return `# ${TEXT}\n${content}`;
  if (!path.endsWith(".md")) return content;
  if (content.startsWith("---\n")) return `---\n# ${TEXT}\n${content.slice(4)}`;
  return `<!-- ${TEXT} -->\n${content}`;
}

/** Whether a file's text carries the mark (it sits in the first lines). */
export function hasGeneratedMark(text: string): boolean {
  return text.slice(0, 512).includes(GENERATED);
}

/** A Markdown text without the mark's comment line, for text that is handed to a model. */
export function withoutGeneratedMark(text: string): string {
  return text.startsWith(`<!-- ${GENERATED}`) ? text.slice(text.indexOf("\n") + 1) : text;
}
