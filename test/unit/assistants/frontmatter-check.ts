import { parse } from "yaml";

/** Splits a Markdown file into its YAML frontmatter (parsed strictly) and its body. */
export function readFrontmatter(content: string): { data: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(content);
  if (!m) throw new Error("no frontmatter block at the start of the file");
  const data: unknown = parse(m[1]!, { strict: true, uniqueKeys: true });
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new Error("frontmatter is not a mapping");
  return { data: data as Record<string, unknown>, body: m[2]! };
}
