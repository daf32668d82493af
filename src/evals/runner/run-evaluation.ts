// Executes a whole run: resolves each dataset's subject once, then every case × repeat not judged yet
// (a run resumed after a takeover keeps its judged cases) through one pool of `parallelism` slots,
// reporting each result as it is judged. Results come back in plan order whatever order they finished
// in. Once `draining` aborts no case starts; the cases in flight are judged and reported, and the run
// comes back incomplete (null): another instance resumes it from its judged cases.
import type { ConversationLimits } from '../../agent/index.js';
import type { ManifestLog } from '../../agent/index.js';
import { meterChatModel, type ChatModel } from '../../models/index.js';
import { deadlineSignal } from '../../platform/abort/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import { NO_BUDGET, type ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { Dataset } from '../datasets/dataset.js';
import type { Pricing, SpendLedger } from '../../platform/spend/index.js';
import { CaseDeadlines } from './case-deadline.js';
import type { CaseExecution, CaseResult } from './case-execution.js';
import type { GovernedCalls } from '../../tools/index.js';
import type { BundleTurns } from '../../bundles/index.js';
import { resolveSubject, type ResolvedSubject } from './resolve-subject.js';
import { runCase } from './run-case.js';
import { runPool } from './run-pool.js';
import type { ReplayMode } from '../recording/recording.js';

const SUBJECT_TIMEOUT_MS = 30_000;

export interface EvaluationInput {
  readonly ownerId: string;
  /** The run: its model calls (cases and grading) count against its owner's spend limits. */
  readonly jobId: string;
  readonly envelope: ResolvedEnvelope;
  /** Every case a turn of the caller's uploaded bundle (DESIGN §19), in place of the datasets' subjects. */
  readonly subject?: { readonly handle: string };
  readonly datasets: readonly Dataset[];
  readonly executions: readonly CaseExecution[];
  readonly parallelism: number;
  /** How recorded cases are answered (default "none"). */
  readonly replay?: ReplayMode;
  /** Cases already judged, by execution index (they are not run again). */
  readonly judged?: ReadonlyMap<number, CaseResult>;
  /** Told each newly judged case (a checkpoint); a rejection fails the run. */
  readonly onJudged?: (index: number, result: CaseResult) => Promise<void>;
  /** Aborted when the host drains: start no case, judge those in flight. */
  readonly draining?: AbortSignal;
}

export interface EvaluationHost {
  readonly model: ChatModel | null;
  /** Meters the run's model calls (DESIGN §16). */
  readonly spend?: SpendLedger;
  readonly calls: GovernedCalls;
  readonly agentDiscoveryPaths: readonly string[];
  readonly limits: ConversationLimits;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly pricing: Pricing;
  readonly hostSignal: AbortSignal;
  /** An uploaded bundle's turns (runs with `subject: { handle }`). */
  readonly bundles?: BundleTurns;
  readonly log: ManifestLog & { warn(details: object, message: string): void };
}

/** Every case's result in plan order, or null when a drain stopped the run before every case was judged. */
export async function runEvaluation(input: EvaluationInput, host: EvaluationHost): Promise<CaseResult[] | null> {
  const subjects = new Map<string, ResolvedSubject>();
  for (const dataset of input.subject === undefined ? input.datasets : []) {
    const deadline = deadlineSignal(host.hostSignal, SUBJECT_TIMEOUT_MS);
    const sources = { registry: host.calls.registry, agentDiscoveryPaths: host.agentDiscoveryPaths, log: host.log };
    try {
      subjects.set(dataset.name, await resolveSubject(dataset.subject, input.envelope, sources, deadline.signal));
    } finally {
      deadline.clear();
    }
  }
  const results: CaseResult[] = new Array<CaseResult>(input.executions.length);
  const pending: number[] = [];
  input.executions.forEach((_execution, index) => {
    const judged = input.judged?.get(index);
    if (judged === undefined) pending.push(index);
    else results[index] = judged;
  });
  const deadlines = new CaseDeadlines(host.hostSignal);
  const model =
    host.model === null || host.spend === undefined
      ? host.model
      : meterChatModel(host.model, host.spend, { ownerId: input.ownerId, family: 'eval', runId: input.jobId, budget: input.envelope.budget ?? NO_BUDGET });
  let taken: number;
  try {
    taken = await runPool(pending, input.parallelism, async (index) => {
      const execution = input.executions[index] as CaseExecution;
      const subject: ResolvedSubject =
        input.subject === undefined
          ? (subjects.get(execution.dataset.name) ?? { ok: false, error: 'the dataset’s subject was not resolved' })
          : { ok: true, kind: 'bundle', handle: input.subject.handle, envelope: input.envelope };
      const result = await runCase(execution, { ...host, model, subject, ownerId: input.ownerId, runId: input.jobId, deadlines, ...(input.replay === undefined ? {} : { replay: input.replay }) });
      results[index] = result;
      await input.onJudged?.(index, result);
    }, input.draining);
  } finally {
    deadlines.close();
  }
  return taken < pending.length ? null : results;
}
