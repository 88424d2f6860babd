/** Default time budget for winning the compare-and-swap (DESIGN §2.3: at least 10 s). */
export const DEFAULT_RETRY_BUDGET_MS = 10_000;

export function retryBudget(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PANTHEON_RETRY_BUDGET_MS);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_RETRY_BUDGET_MS;
}

/**
 * Full-jitter exponential backoff: losers of a race spread out instead of colliding again in
 * lockstep. Capped low because a mutation holds the lock for well under a millisecond.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(100, 2 * 2 ** Math.min(attempt, 6));
  return 1 + Math.floor(random() * cap);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
