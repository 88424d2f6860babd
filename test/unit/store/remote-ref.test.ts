/**
 * Which values of git config remote.<remote>.pantheonRef can hold the state (DESIGN §3.1), and
 * which refusals of a push are about the ref's name (the only ones after which the state may
 * move to a branch), by the words of common hosts and hooks.
 */
import { describe, expect, it } from "vitest";
import { remoteRefProblem } from "../../../src/store/sync/remote-ref.js";
import { refusedForName } from "../../../src/store/sync/ref-refusal.js";

const REF = "refs/coordination/main";

describe("remoteRefProblem", () => {
  it.each([
    ["refs/heads/pantheon-state"],
    ["refs/heads/users/alice/pantheon"],
    ["refs/heads/state_v2.1"],
    ["refs/coordination/main"],
    ["refs/coordination/team-a"],
  ])("accepts %s", (value) => expect(remoteRefProblem(value)).toBeNull());

  it.each([
    ["", "it is empty"],
    ["refs/heads/a b", "spaces or control characters"],
    ["refs/heads/a\u001b[31m", "spaces or control characters"],
    ["refs/heads/state*", "it is a pattern"],
    ["refs/tags/state", "it is a tag"],
    ["refs/coordination/remotes/origin/main", "tracking refs"],
    ["refs/notes/pantheon", "it must be a branch (refs/heads/...) or under refs/coordination/"],
    ["pantheon-state", "it must be a full ref name (refs/heads/pantheon-state, say)"],
    ["refs/heads/bad..name", "not a valid ref name"],
    ["refs/heads/.hidden", "not a valid ref name"],
    ["refs/heads/x.lock", "not a valid ref name"],
    ["refs/heads/a@{1}", "not a valid ref name"],
    ["refs/heads/a//b", "not a valid ref name"],
    ["refs/heads/", "not a valid ref name"],
    [`refs/heads/${"x".repeat(200)}`, "longer than 200"],
  ])("refuses %j: %s", (value, why) => expect(remoteRefProblem(value)).toContain(why));
});

/** A failed `git push --porcelain <commit>:<ref>`: git's line for the ref, and the server's lines. */
const push = (reason: string, said: string[] = [], ref = REF) => ({
  stdout: `To host\n!\t0123456789abcdef0123456789abcdef01234567:${ref}\t[remote rejected] (${reason})\nDone\n`,
  stderr: [...said.map((l) => `remote: ${l}        `), "error: failed to push some refs to 'host'"].join("\n"),
});

describe("refusedForName", () => {
  it.each([
    ["git: a name outside refs/", push("funny refname")],
    ["receive.hideRefs (GitLab's internal namespaces, GitHub's refs/pull)", push("deny updating a hidden ref")],
    ["Gerrit, which grants create per namespace", push("prohibited by Gerrit: not permitted: create")],
    [
      "GitHub rulesets",
      push("push declined due to repository rule violations", [
        "error: GH013: Repository rule violations found for refs/coordination/main.",
        "- Cannot create ref due to creations being restricted.",
      ]),
    ],
    [
      "a pre-receive hook naming the ref",
      push("pre-receive hook declined", [
        "error: refusing refs/coordination/main: only branches and tags may be pushed",
      ]),
    ],
    [
      "a pre-receive hook that does not name it but speaks of branches and tags",
      push("pre-receive hook declined", ["Only branches and tags can be pushed to this repository"]),
    ],
    [
      "an update hook (git names the ref)",
      push("hook declined", ["not allowed", "error: hook declined to update refs/coordination/main"]),
    ],
    ["a hook about the namespace", push("pre-receive hook declined", ["refs/coordination/* may not be created here"])],
  ])("yes: %s", (_, r) => expect(refusedForName(r.stdout, r.stderr, REF)).toBe(true));

  it.each([
    ["a content policy", push("pre-receive hook declined", ["Policy: the state needs a ticket"])],
    ["a bare hook refusal", push("pre-receive hook declined")],
    ["a refusal of another ref", push("deny updating a hidden ref", [], "refs/heads/other")],
    [
      "GitLab without write access",
      push("pre-receive hook declined", ["GitLab: You are not allowed to push code to this project."]),
    ],
    [
      "nothing from the server (a network failure)",
      { stdout: "", stderr: "fatal: unable to access 'https://host/': 403" },
    ],
  ])("no: %s", (_, r) => expect(refusedForName(r.stdout, r.stderr, REF)).toBe(false));
});
