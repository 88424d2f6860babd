import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { findPath } from "../../domain/dependency-graph.js";
import { escapeInline } from "../../domain/control-chars.js";
import { taskId } from "../../domain/ids.js";
import type { Task } from "../../domain/schemas/task.js";
import type { MergeReport, Store } from "../../store/store.js";
import type { Context } from "../kernel/context.js";
import { hasDecisions, type KeptDecisions, type MergeDecisions } from "../../domain/sync-decisions.js";
import { describeMerge, type SyncReport } from "./sync-report.js";

/**
 * Once a merge (or a replay, or a join) has landed on this clone's ref, before anything is
 * pushed: what it decided goes into the report and into a notice kept until a later command
 * shows it, so a push that fails now loses no message. Also reported: dependency cycles the
 * merge closed, and the planning files of renumbered tasks (renamed, or said why not).
 * Returns the notice's id (null when there was nothing to tell).
 */
export async function afterLanding(
  ctx: Context<unknown>,
  store: Store,
  report: SyncReport,
  remote: string,
  merged: MergeReport,
  remoteTip: string,
): Promise<string | null> {
  const d = await describeMerge(store, merged.commit, merged.output, report, remote);
  const cycles = await closedCycles(store, merged, remoteTip);
  const planning = store.root ? await renamePlans(store, store.root, merged, remoteTip) : [];
  d.cycles.push(...cycles);
  d.planning.push(...planning);
  report.cycles.push(...cycles);
  report.planning.push(...planning);
  if (!hasDecisions(d)) return null;
  const kept: KeptDecisions = { remote, at: ctx.now().toISOString(), commit: merged.commit, ...d };
  try {
    return await store.keepNotice(kept, merged.commit.slice(0, 12));
  } catch {
    return null; // a read-only common dir: the report still says it
  }
}

/**
 * Cycles the merge closed: a task written from this clone's side whose dependencies differ from
 * the published version's may close one with the other side's edges (A→B here, B→A there, each
 * record changed on one side only). Only then is the dependency graph read.
 */
async function closedCycles(store: Store, merged: MergeReport, remoteTip: string): Promise<string[][]> {
  const written = merged.output.writes.tasks.filter((w) => !("delete" in w)).map((w) => w.number);
  if (written.length === 0) return [];
  const [after, published] = [await store.snapshotAt(merged.commit), await store.snapshotAt(remoteTip)];
  const added: Array<{ task: number; deps: number[] }> = [];
  for (const n of written) {
    const t = await after.get("tasks", n).catch(() => null);
    if (!t || t.dependencies.length === 0) continue;
    const before = new Set((await published.get("tasks", n).catch(() => null))?.dependencies ?? []);
    const deps = t.dependencies.filter((d) => !before.has(d));
    if (deps.length > 0) added.push({ task: n, deps });
  }
  if (added.length === 0) return [];
  // Every task's dependencies at the merge, read lazily by path (a cycle check walks few).
  const graph = new Map<number, Task | null>();
  const load = async (n: number): Promise<void> => {
    if (!graph.has(n)) graph.set(n, await after.get("tasks", n).catch(() => null));
  };
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const { task, deps } of added) {
    for (const d of deps) {
      // Walk breadth-first from d, loading as we go, until no new task appears.
      const frontier = [d];
      for (let i = 0; i < frontier.length && i < 100_000; i++) {
        await load(frontier[i]!);
        for (const x of graph.get(frontier[i]!)?.dependencies ?? []) if (!graph.has(x)) frontier.push(x);
      }
      const path = findPath(d, task, (n) => graph.get(n)?.dependencies);
      if (!path) continue;
      const members = [task, ...path.slice(0, -1)];
      const key = [...members].sort((a, b) => a - b).join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      const ids = members.map((n) => (graph.get(n) ? taskId(graph.get(n)!) : `task ${n}`));
      cycles.push([...ids, ids[0]!]);
    }
  }
  return cycles;
}

/**
 * A renumbered task's planning file (`.pantheon/planning/<id>.md`, named by the id it had here)
 * follows it to its new id. The old number now belongs to the published task, which may have a
 * plan of its own under the same name (from a teammate, through git): a file is renamed only
 * when its heading names the renumbered task's title and not the published one's.
 */
async function renamePlans(
  store: Store,
  root: string,
  merged: MergeReport,
  remoteTip: string,
): Promise<MergeDecisions["planning"]> {
  const moves = merged.output.renumbered.filter((r) => r.kind === "tasks");
  const dir = join(root, ".pantheon", "planning");
  if (moves.length === 0 || !existsSync(dir)) return [];
  const files = readdirSync(dir);
  const [after, published] = [await store.snapshotAt(merged.commit), await store.snapshotAt(remoteTip)];
  const out: MergeDecisions["planning"] = [];
  for (const m of moves) {
    const mine = await after.get("tasks", m.to).catch(() => null);
    if (!mine) continue;
    const theirs = await published.get("tasks", m.from).catch(() => null);
    const number = String(m.from).padStart(4, "0");
    for (const f of files.filter((name) => new RegExp(`^[A-Z]{3}-[CHML]-${number}\\.md$`).test(name))) {
      const heading = readHeading(join(dir, f));
      const names = (t: Task | null) => t !== null && heading.includes(`: ${escapeInline(t.title)}`);
      if (names(theirs) && !names(mine)) continue; // the published task's own plan
      const rel = `.pantheon/planning/${f}`;
      const target = `${taskId(mine)}.md`;
      const to = `.pantheon/planning/${target}`;
      if (!names(mine) || names(theirs)) {
        out.push({
          from: rel,
          to,
          renamed: false,
          note: `may be ${taskId(mine)}'s plan (its number went to ${theirs ? taskId(theirs) : "another task"}): rename it if so`,
        });
      } else if (existsSync(join(dir, target))) {
        out.push({ from: rel, to, renamed: false, note: `${to} exists already: merge the two by hand` });
      } else {
        renameSync(join(dir, f), join(dir, target));
        out.push({ from: rel, to, renamed: true, note: `renamed with ${taskId(mine)}` });
      }
    }
  }
  return out;
}

function readHeading(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n", 1)[0] ?? "";
  } catch {
    return "";
  }
}
