/**
 * Markdown with a YAML frontmatter, the format of claude and opencode commands and codex skills.
 * Values are written as JSON strings, which YAML reads as double-quoted scalars: a description
 * with a colon, a `#` or a leading `[` cannot change the document's structure.
 */
export function withFrontmatter(fields: Record<string, string>, body: string): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body.trimEnd()}\n`;
}
