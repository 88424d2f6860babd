/**
 * A clean environment for tests: no GIT_* variables inherited (a test run from a git hook gets
 * GIT_DIR, which would aim every git call at this project's own repository), no global config,
 * no assistant or CI markers (`.ci/run` sets CI=true, which turns prompting off), a fixed identity.
 */
export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const drop = /^(GIT_|PANTHEON_|CLAUDECODE|GEMINI_CLI|CODEX_|OPENCODE|AGENT$|CI$|NO_COLOR|FORCE_COLOR)/;
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test Director",
    GIT_AUTHOR_EMAIL: "director@example.com",
    GIT_COMMITTER_NAME: "Test Director",
    GIT_COMMITTER_EMAIL: "director@example.com",
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "gc.auto",
    GIT_CONFIG_VALUE_0: "0",
    GIT_CONFIG_KEY_1: "init.defaultBranch",
    GIT_CONFIG_VALUE_1: "main",
    ...extra,
  };
}
