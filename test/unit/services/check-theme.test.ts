import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import type { Context } from "../../../src/services/kernel/context.js";
import { checkTheme } from "../../../src/services/project/project-settings.js";

/** Only the templates folder is read by the theme check. */
const ctxWith = (templatesDir: string) => ({ templatesDir }) as Pick<Context, "templatesDir"> as Context;

describe("checkTheme", () => {
  it("an installation without its themes says so, instead of an empty list and the refused name as the hint", () => {
    const dir = mkdtempSync(join(tmpdir(), "pantheon-no-themes-"));
    let err: unknown;
    try {
      checkTheme(ctxWith(dir), "mythology");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    const { message, hint } = err as UsageError;
    expect(message).toBe(`No persona theme is installed with this pantheon (nothing in ${join(dir, "themes")})`);
    expect(hint).toMatch(/install pantheon again \(npm ci\)/);
    expect(hint).not.toMatch(/config set/);
  });

  it("an unknown theme lists the installed ones and hints one of them", () => {
    const dir = mkdtempSync(join(tmpdir(), "pantheon-themes-"));
    mkdirSync(join(dir, "themes"));
    for (const t of ["mythology", "constellations"]) writeFileSync(join(dir, "themes", `${t}.yaml`), "names: []\n");
    expect(() => checkTheme(ctxWith(dir), "klingon")).toThrow(
      'customization.personas_theme must be an installed theme: constellations, mythology (not "klingon")',
    );
    expect(() => checkTheme(ctxWith(dir), "mythology")).not.toThrow();
  });
});
