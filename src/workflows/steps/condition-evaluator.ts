// Evaluates ConditionalBranch conditions off the event loop, on a small pool of warm threads shared
// fairly between run owners (platform/worker), each condition under a time limit and a heap limit: one
// that passes either fails its step with DESIGN §17's text, and the event loop never runs a condition.
// What crosses to the thread is only what the condition reads (the input if it mentions `input`, the
// steps it names; all of them only when it reaches `steps` another way), as JSON text serialized once
// per run object: copying a string to a thread is cheap, structured-cloning megabytes of objects is not.
import { siblingModule, WorkerPool, type PoolBounds } from '../../platform/worker/index.js';
import { readsOfCondition, type ConditionResult } from '../definition/condition.js';
import type { ConditionRequest } from './condition-requests.js';
import { JsonTextCache } from './json-text-cache.js';
import { CONDITION_BUDGET_EXCEEDED, CONDITION_NOT_EVALUATED, CONDITIONS_BUSY } from './step-failures.js';

/**
 * How long one condition may run on its thread, in the thread's CPU time. Ordinary conditions take
 * microseconds, and the submit-time cost check (definition/condition-cost.ts) refuses what is knowably
 * slow; this bounds what it cannot price (`in` over a list, `+` of lists, a very large input) far above
 * any sensible condition.
 */
export const CONDITION_TIME_LIMIT_MS = 250;

/**
 * The limit counts the thread's CPU time (decision 3502): its thread runs below the event loop, and on
 * a busy machine a condition of a few milliseconds' work waited longer than the limit for a core and
 * failed as if it had run away. In wall time a condition may take this many times its limit (a thread
 * given a tenth of a core still gets its whole budget), and no more.
 */
const WALL_LIMIT_FACTOR = 10;

/**
 * Two threads; an owner holds one at a time, so another owner's condition never waits behind a runaway.
 * Up to 64 conditions of one owner (a run's parallel branches, several runs) and 256 in all may wait:
 * at the time limit that is at most 32 s of waiting on an idle machine (ten times that on a starved
 * one), a full line answers the step at once instead.
 */
const POOL: PoolBounds = { threads: 2, maxRunningPerOwner: 1, maxWaitingPerOwner: 64, maxWaiting: 256 };

export interface ConditionEvaluatorOptions {
  /** The budget, in the thread's CPU time; default CONDITION_TIME_LIMIT_MS. */
  readonly timeLimitMs?: number;
  /** What a condition may take in wall time; default ten times its time limit. */
  readonly wallLimitMs?: number;
  readonly pool?: PoolBounds;
}

export class ConditionEvaluator {
  readonly #pool: WorkerPool;
  readonly #json = new JsonTextCache();

  constructor(options: ConditionEvaluatorOptions = {}) {
    const timeLimitMs = options.timeLimitMs ?? CONDITION_TIME_LIMIT_MS;
    this.#pool = new WorkerPool({
      ...POOL,
      ...options.pool,
      handlers: siblingModule('condition-requests', import.meta.url),
      timeoutMs: timeLimitMs,
      cpuTime: { wallLimitMs: options.wallLimitMs ?? WALL_LIMIT_FACTOR * timeLimitMs },
      // Room for a run's data (a 2 MiB input and MaxRunOutputBytes of outputs, as objects), not for growing it without end.
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
  }

  /** The condition's verdict for `ownerId`'s run; never rejects. An aborted signal stops it where it is. */
  async evaluate(
    ownerId: string,
    expression: string,
    context: { readonly input: Readonly<Record<string, unknown>>; readonly steps: Readonly<Record<string, unknown>> },
    signal: AbortSignal,
  ): Promise<ConditionResult> {
    const reads = readsOfCondition(expression);
    const names = reads.allSteps ? Object.keys(context.steps) : reads.namedSteps.filter((name) => Object.hasOwn(context.steps, name));
    let request: ConditionRequest;
    try {
      const steps = names.map((name) => `${JSON.stringify(name)}:${this.#json.text(context.steps[name])}`);
      request = { expression, input: reads.input ? this.#json.text(context.input) : '{}', steps: `{${steps.join(',')}}` };
    } catch {
      // Data that is not JSON (run data always is): nothing a condition could be evaluated over.
      return { ok: false, error: CONDITION_NOT_EVALUATED };
    }
    const outcome = await this.#pool.run(ownerId, request, signal);
    switch (outcome.status) {
      case 'done':
        return outcome.value as ConditionResult;
      case 'timeout':
      case 'crashed':
        // Past its time or its heap: the same budget, said the same way.
        return { ok: false, error: CONDITION_BUDGET_EXCEEDED };
      case 'busy':
        return { ok: false, error: CONDITIONS_BUSY };
      case 'failed':
      case 'aborted':
        return { ok: false, error: CONDITION_NOT_EVALUATED };
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
