import type { Prompter, Question } from "../../src/services/kernel/context.js";

/** A Director at a terminal who answers from a list, in order; records every question asked. */
export interface FakePrompter extends Prompter {
  asked: Question[];
}

/**
 * `answers` are given in order; a question beyond them fails the test (nothing may be asked
 * that the test did not expect). `interactive: false` is a session without a terminal.
 */
export function fakePrompter(answers: boolean[], o: { interactive?: boolean } = {}): FakePrompter {
  const asked: Question[] = [];
  const queue = [...answers];
  return {
    interactive: o.interactive ?? true,
    asked,
    async confirm(q) {
      asked.push(q);
      if (!(o.interactive ?? true)) throw new Error(`asked without a terminal: ${q.message}`);
      const a = queue.shift();
      if (a === undefined) throw new Error(`unexpected question: ${q.message}`);
      return a;
    },
  };
}
