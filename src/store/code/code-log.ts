import type { RepoPaths } from "../repo/repo.js";
import { runCodeGit } from "../repo/run-git.js";

export interface CodeCommit {
  oid: string;
  date: string;
  author: string;
  summary: string;
}

/**
 * Code commits (on any branch) whose `Pantheon-Mission:` trailer names the mission, by number
 * or codename (the commit-msg hook writes `MSN-0003:silent-phoenix`, so a renumbered mission
 * still finds its commits through the codename).
 */
export function missionCommits(
  paths: RepoPaths,
  env: NodeJS.ProcessEnv,
  number: string,
  codename: string,
): CodeCommit[] {
  const r = runCodeGit(
    paths,
    [
      "log",
      "--branches",
      "--remotes",
      "--format=%H%x1f%aI%x1f%an%x1f%s%x1f%(trailers:key=Pantheon-Mission,valueonly,separator=%x2C)%x1e",
    ],
    env,
  );
  if (r.status !== 0) return [];
  const out: CodeCommit[] = [];
  for (const rec of r.stdout.split("\x1e")) {
    const [oid, date, author, summary, trailer] = rec.trim().split("\x1f");
    if (!oid || !trailer) continue;
    const values = trailer.split(",").map((v) => v.trim());
    if (values.some((v) => v === number || v.endsWith(`:${codename}`) || v === codename))
      out.push({ oid, date: date ?? "", author: author ?? "", summary: summary ?? "" });
  }
  return out;
}
