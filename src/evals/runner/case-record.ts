// Collects what one case execution produced while it runs — tokens, output, latency — and turns it
// into the CaseResult, whichever way the execution ends.
import type { Clock } from '../../platform/clock/index.js';
import type { AssertionResult, CaseExecution, CaseResult } from './case-execution.js';
import { classifyCase } from './classify-case.js';

export const OUTPUT_EXCERPT_CHARS = 1000;

export class CaseRecord {
  readonly #execution: CaseExecution;
  readonly #clock: Clock;
  readonly #started: number;
  readonly #tokens = { input: 0, output: 0 };
  #latencyMs: number | null = null;
  output = '';

  constructor(execution: CaseExecution, clock: Clock) {
    this.#execution = execution;
    this.#clock = clock;
    this.#started = clock.now();
  }

  get tokens(): { readonly input: number; readonly output: number } {
    return { ...this.#tokens };
  }

  addUsage(usage: { readonly inputTokens: number; readonly outputTokens: number }): void {
    this.#tokens.input += usage.inputTokens;
    this.#tokens.output += usage.outputTokens;
  }

  /** Fixes the latency at the end of the subject's conversation (grading is not the subject's time). */
  conversationEnded(): number {
    this.#latencyMs = this.#elapsed();
    return this.#latencyMs;
  }

  errored(reason: string): CaseResult {
    return this.#result({ outcome: 'errored', error: reason, assertions: [] });
  }

  judged(assertions: readonly AssertionResult[]): CaseResult {
    return this.#result({ outcome: classifyCase(assertions), error: null, assertions });
  }

  #result(end: Pick<CaseResult, 'outcome' | 'error' | 'assertions'>): CaseResult {
    const { dataset, evalCase, repeat } = this.#execution;
    return {
      dataset: dataset.name,
      caseId: evalCase.id,
      tags: evalCase.tags,
      repeat,
      ...end,
      outputExcerpt: this.output.slice(0, OUTPUT_EXCERPT_CHARS),
      latencyMs: this.#latencyMs ?? this.#elapsed(),
      tokens: this.tokens,
    };
  }

  #elapsed(): number {
    return Math.max(0, this.#clock.now() - this.#started);
  }
}
