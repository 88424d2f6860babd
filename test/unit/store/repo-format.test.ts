import { describe, expect, it } from "vitest";
import { unsupportedSettings } from "../../../src/store/repo/repo-format.js";

const cfg = (version: string | null, extensions: Record<string, string> = {}) =>
  `[core]\n${version === null ? "" : `\trepositoryformatversion = ${version}\n`}\tbare = false\n[extensions]\n${Object.entries(
    extensions,
  )
    .map(([k, v]) => `\t${k} = ${v}\n`)
    .join("")}`;

describe("unsupportedSettings (DESIGN §2.2)", () => {
  it.each([
    ["a plain version-0 repository", cfg("0"), []],
    ["no version at all (git reads 0)", cfg(null), []],
    ["objectFormat sha1 spelled out", cfg("1", { objectFormat: "sha1" }), []],
    ["refStorage files spelled out", cfg("1", { refStorage: "files" }), []],
    [
      "the harmless extensions of git 2.39",
      cfg("1", {
        noop: "true",
        "noop-v1": "true",
        preciousObjects: "true",
        partialClone: "origin",
        worktreeConfig: "true",
      }),
      [],
    ],
    ["an unknown extension in version 0 (git ignores it)", cfg("0", { frobnicate: "true" }), []],
  ])("accepts %s", (_what, text, expected) => {
    expect(unsupportedSettings(text)).toEqual(expected);
  });

  it.each([
    ["SHA-256 objects", cfg("1", { objectformat: "sha256" }), "extensions.objectFormat", "sha256"],
    ["reftable refs", cfg("1", { refStorage: "reftable" }), "extensions.refStorage", "reftable"],
    [
      "objectFormat in version 0 (git refuses a v1-only extension there)",
      cfg("0", { objectFormat: "sha256" }),
      "extensions.objectFormat",
      "sha256",
    ],
    ["reftable in version 0", cfg("0", { refstorage: "reftable" }), "extensions.refStorage", "reftable"],
    [
      "a compatibility object format",
      cfg("1", { compatObjectFormat: "sha1" }),
      "extensions.compatObjectFormat",
      "sha1",
    ],
    ["an unknown extension in version 1", cfg("1", { frobnicate: "yes" }), "extensions.frobnicate", "yes"],
    ["format version 2", cfg("2"), "core.repositoryformatversion", "2"],
    ["an unreadable version", cfg("one"), "core.repositoryformatversion", "one"],
  ])("refuses %s, naming the key and value", (_what, text, key, value) => {
    const [first] = unsupportedSettings(text);
    expect(first).toMatchObject({ key, value });
  });

  it("names the last value of a key, as git reads it, and lists every problem", () => {
    const text = `${cfg("1", { objectFormat: "sha1" })}[extensions]\n\tobjectFormat = sha256\n\trefStorage = reftable\n`;
    expect(unsupportedSettings(text).map((p) => `${p.key}=${p.value}`)).toEqual([
      "extensions.objectFormat=sha256",
      "extensions.refStorage=reftable",
    ]);
  });
});
