import { formatAge, PantheonError } from "../../errors.js";

/** What a publishing command has tried so far (services/sync/publish.ts): the words of its failure come from it. */
export interface Tries {
  remote: string;
  budgetMs: number;
  started: number;
  /** Fetch-merge-push rounds begun. */
  attempts: number;
  /** How many times the remote's tip was found moved since the round before (other clones' pushes). */
  moves: number;
}

export const spent = (t: Tries) => Date.now() - t.started;

const times = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "1.5 s" under ten seconds (a test's budget), else formatAge's "20 s", "3 min". */
function duration(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : formatAge(ms);
}

/**
 * Why a change was not published, worded for what happened (DESIGN §3.5): the remote could not
 * be reached ("origin is unreachable: <git's reason>", "origin did not answer within 15 s (git
 * fetch)"), refused the push (its words), needs a decision (a rewritten remote: sync's own
 * message), or was reachable and kept moving until the budget ran out (`error` null: "the 3 min
 * publishing budget ran out after 14 attempts; origin moved 13 times meanwhile"). Contention is
 * never called absence, nor the other way round.
 */
export function publishFailure(t: Tries, error: PantheonError | null): string {
  if (error === null) {
    const moved = t.moves === 0 ? "" : `; ${t.remote} moved ${times(t.moves, "time")} meanwhile`;
    return `the ${duration(t.budgetMs)} publishing budget ran out after ${times(t.attempts, "attempt")}${moved}`;
  }
  const data = error.data as {
    timeout?: boolean;
    operation?: string;
    limitMs?: number;
    unreachable?: string;
    refused?: string;
  };
  if (data.timeout && typeof data.limitMs === "number")
    return `${t.remote} did not answer within ${duration(data.limitMs)} (${(data.operation ?? "git").replace(/ (from|to) .*$/, "")})`;
  if (typeof data.unreachable === "string") return `${t.remote} is unreachable: ${data.unreachable}`;
  if (typeof data.refused === "string") {
    // transport.ts words the server's refusal "the server refused it (reason): its lines".
    const own = /^the server refused it/.exec(data.refused);
    return `${t.remote} refused the push${own ? data.refused.slice(own[0].length) : `: ${data.refused}`}`;
  }
  return error.message;
}
