// Seeds a repository with N tasks in ONE commit made through the store (not N processes), so
// the benchmark measures commands against a realistic state. Bundled by bench.mjs.
import { GitStore } from "../src/store/git-store.js";
import { discoverRepo } from "../src/store/repo.js";
import type { Task } from "../src/domain/schemas/task.js";
import { TASK_ROLES } from "../src/domain/roles.js";
import { PRIORITIES } from "../src/domain/priority.js";

const [dir, countText] = process.argv.slice(2);
const count = Number(countText);
const store = new GitStore(discoverRepo(dir!), { env: process.env, now: () => new Date(), warn: (m) => process.stderr.write(`${m}\n`) });
const statuses = ["TODO", "TODO", "READY", "UNDERWAY", "REVIEW", "BLOCKED", "COMPLETE", "COMPLETE", "ABORTED"] as const;
await store.mutate(async (tx) => {
  const at = new Date().toISOString();
  for (let i = 1; i <= count; i++) {
    const n = await tx.allocate("tasks");
    const status = statuses[i % statuses.length]!;
    const claimed = status === "UNDERWAY" || status === "REVIEW" || status === "BLOCKED" || status === "COMPLETE";
    const task: Task = {
      uid: `seed${String(i).padStart(12, "0")}`,
      number: n,
      title: `Seeded task ${i}: ${["login", "billing", "search", "export", "sync"][i % 5]} work item`,
      description: `Generated for the benchmark; task ${i} of ${count}.`,
      role: TASK_ROLES[i % TASK_ROLES.length]!,
      priority: PRIORITIES[i % PRIORITIES.length]!,
      status,
      dependencies: i > 10 && i % 3 === 0 ? [n - 7] : [],
      epic: null,
      claimedBy: claimed ? "Hephaestus" : null,
      mission: claimed ? 1 : null,
      completedBy: status === "COMPLETE" ? "Hephaestus" : null,
      notes: [],
      formerNumbers: [],
      createdAt: at,
      updatedAt: at,
      createdBy: "Director",
    };
    tx.put("tasks", task);
  }
  return { result: null, commit: { summary: `bench seed ${count} tasks`, op: "bench.seed", actor: "Director", authorName: null, mission: null } };
});
