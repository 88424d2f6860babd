/**
 * Worktrees of one clone share the ref and need no sync (DESIGN §2.4, intro); a diverged sync is
 * one two-parent merge commit visible in `git log --graph` (DESIGN §2.2, §3.2); no sync touches a
 * working tree, an index or HEAD; the repositories stay sound (`git fsck`).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt, makeOriginAndClones, REF, type Clone } from "../../helpers/clones.js";
import { git } from "../../helpers/repo.js";

describe("worktrees of one clone", () => {
  it("a linked worktree sees a change at once, with no sync, both ways", async () => {
    const { root, clones, originRef } = await makeOriginAndClones(1);
    const main = clones[0]!;
    const wtDir = join(root, "clone0-side");
    main.git("worktree", "add", "-q", "-b", "side", wtDir);
    const wt = cloneAt(wtDir, 0);
    wt.markBaseline();
    const before = originRef();

    await main.ok(["task", "create", "--title", "Made in the main worktree", "--role", "engineer"]);
    expect((await wt.json<any>(["task", "show", "1"], "task")).title).toBe("Made in the main worktree");
    await wt.ok(["task", "create", "--title", "Made in the linked worktree", "--role", "engineer"]);
    expect((await main.json<any>(["task", "show", "2"], "task")).title).toBe("Made in the linked worktree");
    expect(wt.ref()).toBe(main.ref());
    expect(originRef(), "nothing went through the remote").toBe(before);

    // and sync from a linked worktree works too (refs live in the common dir)
    expect((await wt.json<any>(["sync"], "sync")).action).toBe("pushed");
    expect(originRef()).toBe(main.ref());
    main.expectUntouched();
    wt.expectUntouched();
  });
});

describe("history of a diverged sync", () => {
  it("is one merge commit with two parents (local first, then origin's), shown by git log --graph", async () => {
    const { clones, origin, originRef } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    await c0.ok(["task", "create", "--title", "Zero's", "--role", "engineer"]);
    await c1.ok(["task", "create", "--title", "One's", "--role", "tester"]);
    await c0.ok(["sync"]);
    const published = originRef()!;
    const localTip = c1.ref()!;
    await c1.ok(["sync"]);
    const merge = c1.ref()!;
    expect(originRef(), "the merge was pushed").toBe(merge);

    const parents = c1.git("rev-list", "--parents", "-n", "1", merge).trim().split(" ").slice(1);
    expect(parents).toEqual([localTip, published]);
    const message = c1.git("log", "-1", "--format=%B", merge);
    expect(message.split("\n")[0]).toBe("sync merge with origin");
    expect(message).toContain("Pantheon-Op: sync.merge");

    const graph = c1.git("log", "--graph", "--oneline", REF);
    expect(graph).toMatch(/^\*\s+[0-9a-f]+ sync merge with origin/m);
    expect(graph).toMatch(/^\|\\/m);
    expect(c1.git("rev-list", "--merges", "--count", REF).trim()).toBe("1");

    // the other clone fast-forwards onto the same merge: one history everywhere
    await c0.ok(["sync"]);
    expect(c0.ref()).toBe(merge);
    for (const dir of [origin, c0.dir, c1.dir])
      expect(() => git(dir, "fsck", "--strict", "--no-progress")).not.toThrow();
    c0.expectUntouched();
    c1.expectUntouched();
  });

  it("a sync touches no working tree, index or HEAD, even with local edits and staged files around", async () => {
    const { clones } = await makeOriginAndClones(2);
    const [c0, c1] = clones as [Clone, Clone];
    // the user's own work in progress: a staged file and an untracked one
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(c1.dir, "notes.txt"), "mine\n");
    writeFileSync(join(c1.dir, "staged.txt"), "staged\n");
    c1.git("add", "staged.txt");
    const statusBefore = c1.git("status", "--porcelain", "--untracked-files=all");
    const indexBefore = c1.git("ls-files", "--stage");
    await c0.ok(["task", "create", "--title", "Zero's", "--role", "engineer"]);
    await c1.ok(["task", "create", "--title", "One's", "--role", "engineer"]);
    await c0.ok(["sync"]);
    await c1.ok(["sync"]);
    await c0.ok(["sync"]);
    expect(c1.git("status", "--porcelain", "--untracked-files=all")).toBe(statusBefore);
    expect(c1.git("ls-files", "--stage")).toBe(indexBefore);
    expect(c1.git("rev-parse", "HEAD").trim()).toBe(c1.baselineHead);
    c0.expectUntouched();
  });
});
