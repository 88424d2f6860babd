/**
 * Which git config key names a remote's state ref (DESIGN §3.1: `pantheon.<remote>.remoteRef`,
 * else `pantheon.remoteRef` for every remote), which values can hold the state, and which refusals of a push are about the ref's name (the only ones after which the state may
 * move to a branch), by the words of common hosts and hooks.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { configFromEntries, parseGitConfig } from "../../../src/store/repo/git-config.js";
import { configuredRemoteRef, remoteRefProblem, remoteRefSetting } from "../../../src/store/sync/remote-ref.js";
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
    ["refs/heads/../../config", "not a valid ref name"],
    ["refs/coordination/../heads/main", "not a valid ref name"],
    ["--upload-pack=touch /tmp/x", "it starts with '-', as an option of git would"],
    ["-c", "as an option of git would"],
    ["refs/heads/--force", "not a valid ref name"],
    ["refs/heads/a/-b", "not a valid ref name"],
    ["true", "it must be a full ref name"], // a bare `remoteRef` line in a config file
  ])("refuses %j: %s", (value, why) => expect(remoteRefProblem(value)).toContain(why));
});

/** A clone's git config from its text (what an include or the global config may add is the same). */
const config = (text: string) => configFromEntries(parseGitConfig(text));
// No refs/remotes/<remote>/HEAD here: the default-branch rule has its own integration test.
const paths = { workTree: null, gitDir: "/nonexistent/.git", commonDir: "/nonexistent/.git" };

describe("which key names the remote's state ref", () => {
  const BOTH =
    '[pantheon]\n\tremoteRef = refs/heads/all-state\n[pantheon "origin"]\n\tremoteRef = refs/heads/origin-state\n';
  it.each([
    [
      "neither: refs/coordination/main, recorded under the remote's own key",
      "",
      "origin",
      {
        key: "pantheon.origin.remoteRef",
        value: undefined,
      },
    ],
    [
      "the plain key, for every remote",
      "[pantheon]\n\tremoteRef = refs/heads/all-state\n",
      "upstream",
      {
        key: "pantheon.remoteRef",
        value: "refs/heads/all-state",
      },
    ],
    [
      "the remote's own key over the plain one",
      BOTH,
      "origin",
      {
        key: "pantheon.origin.remoteRef",
        value: "refs/heads/origin-state",
      },
    ],
    [
      "the plain key for a remote without its own",
      BOTH,
      "upstream",
      {
        key: "pantheon.remoteRef",
        value: "refs/heads/all-state",
      },
    ],
    // Sections and names are case-insensitive in git, subsections are not.
    [
      "any case of section and name",
      '[PANTHEON "origin"]\n\tREMOTEREF = refs/heads/x\n',
      "origin",
      {
        key: "pantheon.origin.remoteRef",
        value: "refs/heads/x",
      },
    ],
    [
      "a subsection only of its exact case",
      '[pantheon "Origin"]\n\tremoteRef = refs/heads/x\n',
      "origin",
      {
        key: "pantheon.origin.remoteRef",
        value: undefined,
      },
    ],
    [
      "a remote whose name has dots",
      '[pantheon "team.a"]\n\tremoteRef = refs/heads/x\n',
      "team.a",
      {
        key: "pantheon.team.a.remoteRef",
        value: "refs/heads/x",
      },
    ],
  ])("%s", (_, text, remote, want) => expect(remoteRefSetting(config(text), remote)).toEqual(want));

  it("the remote's own key may restore the default under a plain key set for the others", () => {
    const c = config(
      '[pantheon]\n\tremoteRef = refs/heads/pantheon-state\n[pantheon "mirror"]\n\tremoteRef = refs/coordination/main\n',
    );
    expect(configuredRemoteRef(c, paths, "mirror")).toEqual({
      ref: "refs/coordination/main",
      configured: true,
      key: "pantheon.mirror.remoteRef",
    });
    expect(configuredRemoteRef(c, paths, "origin")).toEqual({
      ref: "refs/heads/pantheon-state",
      configured: true,
      key: "pantheon.remoteRef",
    });
  });

  it("a value that cannot hold the state is refused naming the key it came from, with the remote's own key to set", () => {
    const refused = (text: string, remote: string): UsageError => {
      try {
        configuredRemoteRef(config(text), paths, remote);
      } catch (e) {
        if (e instanceof UsageError) return e;
        throw e;
      }
      throw new Error("not refused");
    };
    const plain = refused("[pantheon]\n\tremoteRef = --upload-pack=sh\n", "origin");
    expect(plain.message).toBe(
      `git config pantheon.remoteRef is "--upload-pack=sh", which cannot hold the Pantheon state of origin: it starts with '-', as an option of git would; nothing was fetched or pushed`,
    );
    expect(plain.hint).toContain("git config pantheon.origin.remoteRef refs/heads/pantheon-state");
    expect(plain.hint).toContain("git config --unset pantheon.remoteRef");
    const own = refused(
      '[pantheon]\n\tremoteRef = refs/heads/ok\n[pantheon "origin"]\n\tremoteRef = refs/heads/a..b\n',
      "origin",
    );
    expect(own.message).toMatch(/^git config pantheon\.origin\.remoteRef is "refs\/heads\/a\.\.b"/);
    expect(own.hint).toContain("git config --unset pantheon.origin.remoteRef");
    expect(own.data).toMatchObject({ key: "pantheon.origin.remoteRef", value: "refs/heads/a..b", remote: "origin" });
  });
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
