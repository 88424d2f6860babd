/**
 * `pantheon completion` (issue 18): the scripts are sourced in the real shells and asked for
 * completions as the shell would on TAB, with the built `pantheon` on PATH: commands, options,
 * enum values, and ids from the read cache (`pantheon ta<TAB>`, `pantheon task claim ENG<TAB>`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { fastCandidates } from "../../src/cli/complete-fast.js";
import { BIN, runBin } from "../helpers/cli.js";
import { testEnv } from "../helpers/env.js";
import { git, tempDir } from "../helpers/repo.js";
import { Terminal } from "../assistants/terminal.js";

let repo: string;
let shims: string;
let scripts: Record<"bash" | "zsh" | "fish", string>;

const has = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

/** A shell this machine lacks: a visible skip naming it, and a failure in CI (where all three are installed). */
function needShell(ctx: TestContext, shell: string): void {
  if (has(shell)) return;
  const why = `${shell} is not installed: its completion is NOT tested here (installed by scripts/test-tools.mjs, run by npm test)`;
  if (process.env.CI === "true") throw new Error(`${why}; in CI a missing shell is a failure`);
  ctx.skip(why);
}
const env = () => testEnv({ PATH: `${shims}:${process.env.PATH}` });

function ok(argv: string[], cwd = repo): string {
  const r = runBin(argv, { cwd });
  if (r.exitCode !== 0) throw new Error(`pantheon ${argv.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** What bash offers for a command line whose last word is being completed. */
function bash(line: string, cwd = repo): string[] {
  const words = line.split(" ");
  const program = `source ${JSON.stringify(scripts.bash)}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; _pantheon; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["--norc", "--noprofile", "-c", program], { cwd, env: env(), encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
}

describe("pantheon completion", () => {
  beforeAll(() => {
    // One repository for the file: a few tasks in different states, an epic, missions, a review.
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "pantheon-completion-")));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "commit", "-q", "--allow-empty", "-m", "initial");
    shims = join(dir, "bin");
    mkdirSync(shims);
    writeFileSync(
      join(shims, "pantheon"),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
    );
    chmodSync(join(shims, "pantheon"), 0o755);
    ok(["init", "--yes"]);
    ok(["epic", "create", "--title", "Login", "--priority", "high"]);
    ok(["task", "create", "--title", "one", "--role", "engineer", "--priority", "high", "--label", "api,auth"]);
    ok(["task", "create", "--title", "two", "--role", "engineer"]);
    ok(["task", "create", "--title", "three", "--role", "tester"]);
    ok(["task", "create", "--title", "four", "--role", "engineer", "--priority", "low"]);
    ok(["mission", "start", "--role", "engineer", "--persona", "Hephaestus"]);
    ok(["--mission", "MSN-0001", "task", "claim", "2"]);
    ok(["--mission", "MSN-0001", "task", "update", "2", "--status", "REVIEW"]);
    ok(["task", "close", "4", "--status", "ABORTED", "--notes", "dropped"]);
    ok(["dashboard"]); // the read cache of every kind exists, behind the ref by nothing
    scripts = { bash: join(dir, "c.bash"), zsh: join(dir, "c.zsh"), fish: join(dir, "c.fish") };
    for (const shell of ["bash", "zsh", "fish"] as const) writeFileSync(scripts[shell], ok(["completion", shell]));
  });

  it("bash: `pantheon ta<TAB>` completes the command, and subcommands after it", () => {
    expect(bash("pantheon ta")).toEqual(["task"]);
    expect(bash("pantheon task cl")).toEqual(["claim", "close"]);
    expect(bash("pantheon ")).toEqual(
      expect.arrayContaining(["task", "epic", "mission", "review", "dashboard", "completion", "mcp"]),
    );
    expect(bash("pantheon ")).not.toContain("__complete");
  });

  it("bash: `pantheon task claim ENG<TAB>` offers the claimable engineer tasks, from the read cache", () => {
    expect(bash("pantheon task claim ENG")).toEqual(["ENG-H-0001"]);
    expect(bash("pantheon task claim ")).toEqual(["ENG-H-0001", "TST-M-0003"]);
    expect(bash("pantheon task claim eng")).toEqual(["ENG-H-0001"]);
    expect(bash("pantheon task show ")).toEqual(["ENG-H-0001", "ENG-M-0002", "TST-M-0003", "ENG-L-0004"]);
    expect(bash("pantheon task reopen ")).toEqual(["ENG-L-0004"]);
    expect(bash("pantheon task update E")).toEqual(["ENG-H-0001", "ENG-M-0002"]);
    expect(bash("pantheon task depend ENG-H-0001 T")).toEqual(["TST-M-0003"]);
    expect(bash("pantheon task link ENG-H-0001 ")).toEqual(["EPC-H-0001"]);
    expect(bash("pantheon review approve ")).toEqual(["RVW-001"]);
    expect(bash("pantheon mission end ")).toEqual(["MSN-0001"]);
    expect(bash("pantheon --mission ")).toEqual(["MSN-0001"]);
    expect(bash("pantheon --as ")).toEqual(["Hephaestus"]);
  });

  it("bash: options, and enum values in any case", () => {
    expect(bash("pantheon task update ENG-M-0002 --")).toEqual(
      expect.arrayContaining(["--status", "--notes", "--no-review", "--json", "--mission"]),
    );
    expect(bash("pantheon task update ENG-M-0002 --status ")).toEqual(["UNDERWAY", "REVIEW", "BLOCKED", "TODO"]);
    expect(bash("pantheon task list --status rev")).toEqual(["REVIEW"]);
    expect(bash("pantheon task create --title x --role e")).toEqual(["engineer"]);
    expect(bash("pantheon mission start --role a")).toEqual(["administrator", "architect"]);
    expect(bash("pantheon task priority ENG-H-0001 ")).toEqual(["CRITICAL", "HIGH", "MEDIUM", "LOW"]);
    expect(bash("pantheon review create --type ")).toEqual(["code", "task_completion", "design", "general"]);
    expect(bash("pantheon completion ")).toEqual(["bash", "zsh", "fish"]);
    expect(bash("pantheon --json task c")).toEqual(["create", "claim", "close", "check"]);
    // Labels in use, from the read cache: for --label and for task label/unlabel's words.
    expect(bash("pantheon task list --label a")).toEqual(["api", "auth"]);
    expect(bash("pantheon task next --label au")).toEqual(["auth"]);
    expect(bash("pantheon task unlabel ENG-H-0001 ")).toEqual(["api", "auth"]);
  });

  it("bash: -C names the repository the ids come from", () => {
    const elsewhere = tempDir();
    expect(bash(`pantheon -C ${repo} task claim T`, elsewhere)).toEqual(["TST-M-0003"]);
    expect(bash("pantheon task claim ", elsewhere)).toEqual([]);
  });

  it("answers ids from the cache without the CLI, and through the CLI when the cache cannot", async () => {
    expect(await fastCandidates(["__complete", "task-claimable", "E"], repo, testEnv())).toEqual(["ENG-H-0001"]);
    ok(["task", "create", "--title", "five", "--role", "engineer"]); // the journal carries it
    expect(await fastCandidates(["__complete", "task-claimable", "E"], repo, testEnv())).toEqual([
      "ENG-H-0001",
      "ENG-M-0005",
    ]);
    // A commit made by git breaks the journal's chain: the fast path declines, the CLI answers.
    const tip = git(repo, "rev-parse", "refs/coordination/main").trim();
    const tree = git(repo, "rev-parse", `${tip}^{tree}`).trim();
    const commit = git(repo, "commit-tree", tree, "-p", tip, "-m", "by git").trim();
    git(repo, "update-ref", "refs/coordination/main", commit, tip);
    expect(await fastCandidates(["__complete", "task-claimable", "E"], repo, testEnv())).toBeNull();
    expect(ok(["__complete", "task-claimable", "E"])).toBe("ENG-H-0001\nENG-M-0005\n");
    // The CLI saved the cache on the way: the next TAB is fast again.
    expect(await fastCandidates(["__complete", "task-claimable", "E"], repo, testEnv())).toEqual([
      "ENG-H-0001",
      "ENG-M-0005",
    ]);
    expect(await fastCandidates(["__complete", "task-claimable", "--json"], repo, testEnv())).toBeNull();
    const probe = (argv: string[]) => {
      const code = `process.on("exit", () => process.stderr.write("CORE:" + Object.keys(require.cache).some((k) => k.endsWith("core-loader.cjs"))));process.argv = [process.argv[0], ${JSON.stringify(BIN)}, ...${JSON.stringify(argv)}];require(${JSON.stringify(BIN)});`;
      const r = spawnSync(process.execPath, ["-e", code], { cwd: repo, env: testEnv(), encoding: "utf8" });
      return { out: r.stdout, core: /CORE:true/.test(r.stderr) };
    };
    expect(probe(["__complete", "task", "TST"])).toEqual({ out: "TST-M-0003\n", core: false });
    expect(probe(["-C", repo, "__complete", "task-closed"])).toEqual({ out: "ENG-L-0004\n", core: false });
    // The reviews' cache is still before the commit git made: the CLI answers (and catches up).
    expect(probe(["__complete", "review"])).toEqual({ out: "RVW-001\n", core: true });
    expect(probe(["__complete", "review"])).toEqual({ out: "RVW-001\n", core: false });
    expect(probe(["task", "list", "--limit", "1", "--json"]).core).toBe(true);
  });

  it("zsh: the same completion through bashcompinit", (ctx) => {
    needShell(ctx, "zsh");
    const run = (words: string[]) =>
      execFileSync(
        "zsh",
        [
          "-f",
          "-c",
          `autoload -U +X compinit && compinit -u; source ${JSON.stringify(scripts.zsh)}; emulate -L sh; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _pantheon; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { cwd: repo, env: env(), encoding: "utf8" },
      )
        .split("\n")
        .filter(Boolean);
    expect(run(["pantheon", "ta"])).toEqual(["task"]);
    expect(run(["pantheon", "task", "claim", "ENG"])).toEqual(["ENG-H-0001", "ENG-M-0005"]);
  });

  it("fish: the same completion from its own script", (ctx) => {
    needShell(ctx, "fish");
    const run = (line: string) =>
      execFileSync(
        "fish",
        ["--no-config", "-c", `source ${JSON.stringify(scripts.fish)}; complete -C ${JSON.stringify(line)}`],
        { cwd: repo, env: env(), encoding: "utf8" },
      )
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]);
    expect(run("pantheon ta")).toEqual(["task"]);
    expect(run("pantheon task claim ENG")).toEqual(["ENG-H-0001", "ENG-M-0005"]);
    expect(run("pantheon task update ENG-M-0002 --status ")).toEqual(["BLOCKED", "REVIEW", "TODO", "UNDERWAY"]);
  });

  describe("names with spaces, completed by TAB in the real interactive shells", () => {
    let spaced: string;
    beforeAll(() => {
      // A persona named with a space (the mythology theme's "Jade Emperor"), a directory too.
      spaced = join(repo, "..", "spaced");
      mkdirSync(join(spaced, "my repo"), { recursive: true });
      git(spaced, "init", "-q", "-b", "main");
      git(spaced, "commit", "-q", "--allow-empty", "-m", "initial");
      ok(["init", "--yes"], spaced);
      ok(["mission", "start", "--role", "administrator", "--persona", "Jade Emperor"], spaced);
    });

    /**
     * Types each line into an interactive shell where `pantheon` is a function printing its
     * arguments (`<--as><Jade Emperor>`) while completion runs the real one (`command pantheon`),
     * presses TAB at its end, then Enter; returns what the function printed for each line.
     */
    async function typedWithTab(shell: "bash" | "zsh" | "fish", lines: string[]): Promise<string[]> {
      const scratch = tempDir();
      const t = new Terminal(scratch);
      const home = join(scratch, "home");
      mkdirSync(home);
      const script = JSON.stringify(scripts[shell]);
      const argv = {
        bash: ["bash", "--norc", "--noprofile", "-i"],
        zsh: ["zsh", "-f", "-i"],
        fish: ["fish", "--no-config", "-i"],
      }[shell];
      const setup = {
        bash: `PS1='> '; source ${script}; pantheon() { printf '<%s>' "$@"; echo; }; echo READY-$((1+1))`,
        zsh: `PS1='> '; autoload -U compinit && compinit -u; source ${script}; pantheon() { printf '<%s>' "$@"; echo; }; echo READY-$((1+1))`,
        fish: `function fish_prompt; echo -n '> '; end; source ${script}; function pantheon; printf '<%s>' $argv; echo; end; echo READY-(math 1+1)`,
      }[shell];
      const env = testEnv({
        PATH: `${shims}:${process.env.PATH}`,
        HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_DATA_HOME: home,
      });
      t.start(spaced, env as Record<string, string>, argv);
      try {
        t.type(setup);
        t.keys("Enter");
        await t.until("the shell to be ready", () => /^READY-2$/m.test(t.screen()), 20_000);
        const printed: string[] = [];
        for (const line of lines) {
          t.type(line);
          t.keys("Tab");
          // The completion is in when the line shows the rest of the name.
          await t.until(
            `TAB after ${JSON.stringify(line)} to complete`,
            () => /Emperor|my\\? repo/.test(t.screen().split("\n").filter(Boolean).at(-1) ?? ""),
            20_000,
          );
          t.keys("Enter");
          const out = await t.until(
            `the arguments of ${JSON.stringify(line)}`,
            () => {
              const all = t
                .screen()
                .split("\n")
                .filter((l) => l.startsWith("<"));
              return all.length > printed.length ? all[printed.length] : undefined;
            },
            20_000,
          );
          printed.push(out.trim());
        }
        return printed;
      } finally {
        t.close();
      }
    }

    const LINES = ["pantheon --as Ja", "pantheon --as Jade\\ E", 'pantheon --as "Jade E', "pantheon -C my"];
    const ONE_WORD = [
      "<--as><Jade Emperor>",
      "<--as><Jade Emperor>",
      "<--as><Jade Emperor>",
      expect.stringMatching(/^<-C><my repo\/?>$/),
    ];

    it.for(["bash", "zsh", "fish"] as const)(
      "%s: a name with a space is offered quoted, and reaches the command as one word",
      async (shell, ctx) => {
        needShell(ctx, shell);
        needShell(ctx, "tmux");
        expect(await typedWithTab(shell, LINES)).toEqual(ONE_WORD);
      },
    );
  });
});
