// Eval runs as the run engine knows them: records in the `eval-run` collection, live while Queued or
// Running, one lane of Evaluation:MaxConcurrentRuns per instance and one run per owner at a time. A
// run begins Running, always resumes from its judged cases when its instance died, checkpoints each
// judged case through the live run (so nothing is written once the engine fenced it: a case cut short
// by a stopping host is run again, on its own answer, by the next instance), and ends as settle
// files it: Succeeded with its report, or Failed/Cancelled without one.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import { redactValue } from '../../platform/redaction/index.js';
import { INTERRUPTED, type Interrupted, type LiveRun, type RunEnding, type RunKind, type SettlingRun } from '../../runs/index.js';
import type { EvalRunData, FinishedStatus, RunDetails } from '../eval-run.js';
import { buildReport } from '../report/build-report.js';
import type { Tally } from '../report/tally.js';
import { planExecutions } from '../runner/plan-executions.js';
import { runEvaluation, type EvaluationHost } from '../runner/run-evaluation.js';
import { redactCaseResult } from '../runner/redact-case-result.js';
import type { CaseResult } from '../runner/case-execution.js';
import type { Verdict } from '../schemas.js';
import { LIVE_STATES, RUN_COLLECTION, type EvalStore } from '../store/eval-store.js';
import type { EventOutbox } from '../../platform/outbox/index.js';
import { evalRunFinished } from './eval-run-event.js';

export interface EvalRunKindOptions {
  readonly store: EvalStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly maxConcurrent: number;
  readonly host: Omit<EvaluationHost, 'hostSignal' | 'clock' | 'ids'>;
  /** Where eval.run.finished is written with the run's end. */
  readonly events: EventOutbox;
  /** Told of every run that finished with a report (the eval verdict and case metrics). */
  readonly onReport?: (verdict: Verdict, counts: Tally) => void;
}

/** Every case judged, in plan order. */
export interface EvalOutcome {
  readonly results: readonly CaseResult[];
}

export function evalRunKind(options: EvalRunKindOptions): RunKind<EvalRunData, EvalOutcome> {
  const { store, clock } = options;
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    lane: { maxConcurrent: options.maxConcurrent, maxConcurrentPerOwner: 1 },
    begin: (record, now) => (record.data.status === 'Queued' ? { state: 'Running', data: { ...record.data, status: 'Running', startedAt: now } } : null),
    resumes: () => true,
    execute: (run) => execute(run, options),
    settle: async (run, ending) => {
      const data = run.record.data;
      const final = finalOf(ending);
      const commit = async (patch: Parameters<SettlingRun<EvalRunData>['commit']>[0]['record']['patch']): Promise<boolean> => {
        const outbox = patch.data === undefined ? [] : await options.events.entriesFor(evalRunFinished(patch.data), run.now);
        return (await run.commit({ record: { patch }, outbox })).committed;
      };
      if (final === 'Succeeded' && ending.type === 'completed' && data.submission !== null) {
        const { options: runOptions } = data.submission;
        const startedAt = data.startedAt ?? run.now;
        const results = ending.outcome.results;
        const built = buildReport(results, {
          datasets: data.datasetNames,
          repeats: runOptions.repeats,
          failRateThreshold: runOptions.failRateThreshold,
          pricing: options.host.pricing,
          ...(data.submission.baseline === undefined ? {} : { baseline: data.submission.baseline }),
          ...(runOptions.failOnRegression === undefined ? {} : { failOnRegression: runOptions.failOnRegression }),
        });
        const completedAt = clock.now();
        const outcome = { counts: built.counts, verdict: built.verdict, durationMs: Math.max(0, completedAt - startedAt), costUsd: built.costUsd };
        // Everything in the details that came from a model or a tool is redacted here, before it is kept
        // (each case as its checkpoint was: the same object when it carries nothing to redact).
        const details: RunDetails = { ...redactValue({ datasets: data.datasetNames, repeats: runOptions.repeats, report: built.report }), cases: results.map(redactCaseResult) };
        if (!(await store.file({ ...data, status: 'Succeeded', completedAt, outcome }, details, commit))) return null;
        options.onReport?.(built.verdict, built.counts);
        return 'Succeeded';
      }
      const empty: RunDetails = { datasets: data.datasetNames, repeats: data.submission?.options.repeats ?? 1, report: null, cases: [] };
      return (await store.file({ ...data, status: final, completedAt: clock.now(), outcome: null }, empty, commit)) ? final : null;
    },
  };
}

async function execute(live: LiveRun<EvalRunData>, options: EvalRunKindOptions): Promise<EvalOutcome | Interrupted> {
  const { store, clock, ids, host } = options;
  const run = live.record.data;
  const submission = run.submission;
  if (submission === null) return { results: [] };
  const results = await runEvaluation(
    {
      ownerId: run.ownerId,
      jobId: run.jobId,
      envelope: submission.envelope,
      ...(submission.subject === undefined ? {} : { subject: submission.subject }),
      datasets: submission.datasets,
      executions: planExecutions(submission.datasets, submission.options.repeats, submission.options.tagFilter),
      parallelism: submission.options.parallelism,
      ...(submission.options.replay === undefined ? {} : { replay: submission.options.replay }),
      judged: await store.judged(live.key),
      // Each judged case is a checkpoint, written only while the run is this instance's.
      onJudged: async (index, result) => void (await live.commit({ items: [{ key: String(index), data: redactCaseResult(result) }] })),
      draining: live.draining,
    },
    { ...host, clock, ids, hostSignal: live.signal },
  );
  return results === null ? INTERRUPTED : { results };
}

/** The status an ending files: a report only for a run that completed undisturbed. */
function finalOf(ending: RunEnding<EvalOutcome>): FinishedStatus {
  switch (ending.type) {
    case 'completed':
      return ending.stopped === null ? 'Succeeded' : 'Failed';
    case 'stopped':
      return ending.stopped.cause === 'cancelled' ? 'Cancelled' : 'Failed';
    case 'crashed':
    case 'abandoned':
      return 'Failed';
  }
}
