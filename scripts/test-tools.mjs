// Run by `npm test` before vitest: the programs the tests drive that a machine may lack: tmux for
// the terminal suites (test/e2e/*-terminal, init-wizard, watch-resize, summon-signals), the
// shells of the completion tests (bash is always there; zsh and fish) and sshd for the real-ssh
// test of publishing (test/integration/sync/network-limits.test.ts), installed when missing and
// this is root (test/helpers/tools.ts is what the suites check). In CI a program that cannot be had fails the suite that needs it; elsewhere that
// suite skips it, visibly, naming it.
import { ensureDebianPackages } from "./debian-packages.mjs";

const why = ensureDebianPackages("npm test", {
  tmux: "tmux",
  zsh: "zsh",
  fish: "fish",
  sshd: "openssh-server",
});
if (why)
  console.log(
    `npm test: ${why}; the tests that need them (the terminal suites, completion for those shells, the real-ssh test) will ${process.env.CI === "true" ? "fail" : "be skipped"}`,
  );
