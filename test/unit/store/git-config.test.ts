import { describe, expect, it } from "vitest";
import {
  configFromEntries,
  loadGitConfig,
  normalizeConfigKey,
  parseConfigParameters,
  parseGitConfig,
  resolveIdentity,
} from "../../../src/store/repo/git-config.js";
import { parseIdent } from "../../../src/store/repo/git-identity.js";

describe("parseGitConfig", () => {
  it("normalises section and key case but keeps subsection case (except the old [a.B] form)", () => {
    const text = '[Remote "Origin"]\n\tURL = u\n[Pantheon.Old]\n\tKey = v\n[User]\nname=n\n';
    expect(parseGitConfig(text)).toEqual([
      { key: "remote.Origin.url", value: "u" },
      { key: "pantheon.old.key", value: "v" },
      { key: "user.name", value: "n" },
    ]);
    expect(normalizeConfigKey("REMOTE.Origin.URL")).toBe("remote.Origin.url");
    expect(normalizeConfigKey("User.Name")).toBe("user.name");
  });

  it("handles bare keys, comments, quotes, escapes, continuations and CRLF", () => {
    const text =
      '[s]\r\n\tflag\r\n\ta = x ; c\n\tb = "q # ;"\n\tc = \\"\\\\\\t\\n\n\td = one \\\n two\n# [t]\n; x = y\n\te = "  kept  "  \n';
    expect(parseGitConfig(text)).toEqual([
      { key: "s.flag", value: "true" },
      { key: "s.a", value: "x" },
      { key: "s.b", value: "q # ;" },
      { key: "s.c", value: '"\\\t\n' },
      { key: "s.d", value: "one  two" }, // both spaces survive, as in git
      { key: "s.e", value: "  kept  " },
    ]);
  });

  it("skips keys before any section and lines after an invalid header", () => {
    expect(parseGitConfig("orphan = 1\n[bad\nk = v\n[ok]\nk = w\n")).toEqual([{ key: "ok.k", value: "w" }]);
  });
});

describe("resolveIdentity", () => {
  const cfg = configFromEntries([
    { key: "user.name", value: "Global" },
    { key: "user.name", value: "Repo" },
    { key: "user.email", value: "repo@x" },
  ]);
  const none = configFromEntries([]);

  it("prefers GIT_AUTHOR_*, then GIT_COMMITTER_*, then config", () => {
    expect(resolveIdentity({ GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "C" }, cfg)).toEqual({
      name: "A",
      email: "a@x",
      source: "env",
    });
    expect(resolveIdentity({ GIT_COMMITTER_NAME: "C" }, cfg)).toEqual({ name: "C", email: "repo@x", source: "env" });
    expect(resolveIdentity({}, cfg)).toEqual({ name: "Repo", email: "repo@x", source: "config" });
    expect(resolveIdentity({ GIT_AUTHOR_NAME: "  " }, cfg)).toEqual({
      name: "Repo",
      email: "repo@x",
      source: "config",
    });
  });

  it("fills a missing half from the fallback, or falls back entirely", () => {
    expect(resolveIdentity({}, configFromEntries([{ key: "user.email", value: "only@x" }]))).toEqual({
      name: "Director",
      email: "only@x",
      source: "config",
    });
    expect(resolveIdentity({}, none)).toEqual({
      name: "Director",
      email: "director@pantheon.invalid",
      source: "fallback",
    });
    expect(resolveIdentity({ EMAIL: "mail@x" }, none)).toEqual({ name: "Director", email: "mail@x", source: "env" });
  });
});

describe("parseConfigParameters (GIT_CONFIG_PARAMETERS as git writes it)", () => {
  it("reads the 'key'='value' form, quotes inside values, bare keys and the old 'key=value' form", () => {
    expect(
      parseConfigParameters("'user.email'='a@b.c' 'user.name'='It'\\''s me' 'core.bare' 'alias.x=!echo hi'"),
    ).toEqual([
      ["user.email", "a@b.c"],
      ["user.name", "It's me"],
      ["core.bare", "true"],
      ["alias.x", "!echo hi"],
    ]);
  });

  it("stops at text it cannot parse, keeping what came before", () => {
    expect(parseConfigParameters("'a.b'='1' garbage 'c.d'='2'")).toEqual([["a.b", "1"]]);
    expect(parseConfigParameters("")).toEqual([]);
  });

  it("is applied after GIT_CONFIG_COUNT pairs, as git does (later wins)", () => {
    const env = {
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "user.email",
      GIT_CONFIG_VALUE_0: "count@x",
      GIT_CONFIG_PARAMETERS: "'user.email'='params@x'",
    };
    expect(loadGitConfig(null, env).get("user.email")).toBe("params@x");
  });
});

describe("parseIdent (git var's output)", () => {
  it("takes name and email, and rejects anything else", () => {
    expect(parseIdent("Ada Lovelace <ada@example.org> 1700000000 +0100\n")).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.org",
    });
    expect(parseIdent("<only@email> 1700000000 -0530")).toEqual({ name: "", email: "only@email" });
    expect(parseIdent("fatal: unable to auto-detect email address")).toBeNull();
  });
});
