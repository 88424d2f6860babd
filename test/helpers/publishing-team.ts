import { makeOriginAndClones, type Clone } from "./clones.js";

/**
 * Two clones of a bare origin that publish by themselves (`autoSync`), both holding two
 * engineer tasks, each with an engineer's mission started: the team the publishing tests race.
 */
export async function publishingTeam() {
  const setup = await makeOriginAndClones(2, { autoSync: true });
  const [c0, c1] = setup.clones as [Clone, Clone];
  await c0.ok(["task", "create", "--title", "Shared work", "--role", "engineer"]);
  await c0.ok(["task", "create", "--title", "Other work", "--role", "engineer"]);
  await c0.ok(["sync"]);
  await c1.ok(["sync"]);
  await c0.ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
  await c1.ok(["mission", "start", "--role", "engineer", "--persona", "Ptah"]);
  return { ...setup, c0, c1 };
}
