// Run by `npm test` before vitest: the shells the completion tests drive (bash is always there;
// zsh and fish are installed when missing and this is root). In CI a shell that cannot be had
// fails the suite that needs it (test/e2e/completion.test.ts); elsewhere that suite skips it,
// visibly, naming it.
import { ensureDebianPackages } from "./debian-packages.mjs";

const why = ensureDebianPackages("npm test", { zsh: "zsh", fish: "fish" });
if (why)
  console.log(
    `npm test: ${why}; the completion tests for those shells will ${process.env.CI === "true" ? "fail" : "be skipped"}`,
  );
