// Types for scripts/debian-packages.mjs (plain JavaScript run by node), for the tests that import it.
export function ensureDebianPackages(label: string, programs: Record<string, string>): string | null;
export function missingProgramExit(label: string, why: string, installer: string, env?: NodeJS.ProcessEnv): 0 | 1;
