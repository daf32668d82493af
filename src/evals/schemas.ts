// Request/response schemas of the eval routes (SPEC.md "Eval resources", DESIGN.md §7): they validate,
// type the handlers and produce the OpenAPI entries. Field names are DESIGN §7's, exactly.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PathId } from '../platform/http/index.js';

export const EVAL_RUN_STATUSES = ['Queued', 'Running', 'Succeeded', 'Failed', 'Cancelled'] as const;
export const VERDICTS = ['Pass', 'Warn', 'Fail'] as const;

export const EvalDatasetsResponseSchema = Type.Object(
  {
    datasets: Type.Array(Type.String(), {
      description: 'File names directly inside a configured root, without extension; sorted, not recursive. Empty when no roots.',
    }),
  },
  { $id: 'EvalDatasetsResponse' },
);

/** The Evaluation:* ceilings a start request is held to (inclusive). */
export interface StartEvalRunLimits {
  readonly maxDatasetsPerRun: number;
  readonly maxRepeats: number;
  readonly maxParallelism: number;
}

function startEvalRunRequest(limits: StartEvalRunLimits | undefined) {
  return Type.Object(
    {
      // No minLength: an empty name is an unknown dataset (404), like any name no root holds.
      datasets: Type.Array(Type.String({ description: 'A dataset name.' }), {
        minItems: 1,
        ...(limits ? { maxItems: limits.maxDatasetsPerRun } : {}),
        uniqueItems: true,
        description: 'Dataset names (never paths), as GET /api/evals/datasets lists them; at most Evaluation:MaxDatasetsPerRun.',
      }),
      repeats: Type.Optional(
        Type.Integer({ minimum: 1, ...(limits ? { maximum: limits.maxRepeats } : {}), description: 'Executions of every case (default 1, at most Evaluation:MaxRepeats).' }),
      ),
      parallelism: Type.Optional(
        Type.Integer({
          minimum: 1,
          ...(limits ? { maximum: limits.maxParallelism } : {}),
          description: 'Concurrent case executions, repeats included (default 4, at most Evaluation:MaxParallelism).',
        }),
      ),
      tagFilter: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'A case runs when it has any of these tags.' }),
      ),
      failRateThreshold: Type.Optional(
        Type.Number({ minimum: 0, maximum: 1, description: 'Verdict is Fail when (failed + errored) / total exceeds it (default 0).' }),
      ),
      subject: Type.Optional(
        Type.Object(
          { handle: Type.String({ minLength: 1, maxLength: 256, description: 'A live bundle handle of the caller.' }) },
          { additionalProperties: false, description: 'Every case runs as a turn of the caller’s uploaded bundle, in place of the datasets’ own subjects (needs bundle execution on).' },
        ),
      ),
      baseline: Type.Optional(
        Type.String({ minLength: 1, maxLength: 256, description: 'The jobId of an earlier Succeeded eval run of the caller: the report gains `comparison`.' }),
      ),
      replay: Type.Optional(
        Type.Union([Type.Literal('none'), Type.Literal('tools'), Type.Literal('all')], {
          description:
            'How cases made from runs are answered: none (default, live), tools (the live model, every tool call answered from the recording, `Not in the recording.` otherwise), all (the model’s answers too: no model call, no cost; a run that leaves the recording is errored `Replay diverged at step N.`). Cases without a recording run live.',
        }),
      ),
      failOnRegression: Type.Optional(Type.Boolean({ description: 'With `baseline`: any regression makes the verdict Fail (without one there is nothing to regress from).' })),
    },
    { $id: 'StartEvalRunRequest', additionalProperties: false },
  );
}

/** The shape a start body must have; the configured ceilings are checked beside it (readRunOptions). */
export const StartEvalRunRequestSchema = startEvalRunRequest(undefined);

/** The same request as the document publishes it: with this host's ceilings as its limits. */
export function documentedStartEvalRunRequestSchema(limits: StartEvalRunLimits) {
  return startEvalRunRequest(limits);
}

export const StartEvalRunResponseSchema = Type.Object(
  { jobId: Type.String(), statusUrl: Type.String({ description: 'Relative URL of the poll endpoint.' }) },
  { $id: 'StartEvalRunResponse' },
);

const Tally = {
  passed: Type.Integer(),
  failed: Type.Integer(),
  warned: Type.Integer(),
  errored: Type.Integer(),
};

const Outcome = Type.Union([Type.Literal('passed'), Type.Literal('warned'), Type.Literal('failed'), Type.Literal('errored')]);
const CaseChange = Type.Object({
  dataset: Type.String({ description: 'As this run names it.' }),
  caseId: Type.String(),
  was: Outcome,
  now: Outcome,
});

export const EvalReportSchema = Type.Object(
  {
    failRate: Type.Number({ description: '(failed + errored) / total.' }),
    failRateThreshold: Type.Number(),
    repeats: Type.Integer(),
    byDataset: Type.Array(Type.Object({ name: Type.String(), ...Tally })),
    byTag: Type.Array(Type.Object({ tag: Type.String(), ...Tally })),
    tokens: Type.Object({ input: Type.Integer(), output: Type.Integer() }, { description: 'Subject conversations and llm-rubric grading.' }),
    flakyCases: Type.Integer({ description: 'Cases whose repeats neither all passed nor all failed.' }),
    passAtK: Type.Number({ description: 'pass^k: the share of cases that passed in every one of their k repeats (warnings pass).' }),
    comparison: Type.Optional(
      Type.Object(
        {
          baseline: Type.String({ description: 'The baseline run’s job id.' }),
          regressions: Type.Array(CaseChange, { description: 'Cases whose outcome ranks lower than in the baseline (passed > warned > failed = errored).' }),
          improvements: Type.Array(CaseChange, { description: 'Cases whose outcome ranks higher than in the baseline.' }),
          unchanged: Type.Integer({ minimum: 0, description: 'Cases in both runs whose outcome ranks the same.' }),
        },
        { description: 'With `baseline`: each case’s most frequent outcome across its repeats against the baseline’s; cases in only one of the runs are left out.' },
      ),
    ),
  },
  { description: 'Absent until Succeeded and once the submission was reclaimed.' },
);

export const EvalRunResponseSchema = Type.Object(
  {
    jobId: Type.String(),
    status: Type.Union([
      Type.Literal('Queued'),
      Type.Literal('Running'),
      Type.Literal('Succeeded'),
      Type.Literal('Failed'),
      Type.Literal('Cancelled'),
    ]),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    progress: Type.Optional(
      Type.Object(
        { completed: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) },
        { description: 'While Queued or Running (poll only): case executions judged so far out of all planned, repeats included.' },
      ),
    ),
    counts: Type.Optional(Type.Object({ ...Tally, total: Type.Integer() }, { description: 'Once Succeeded; a case counts once per repeat.' })),
    verdict: Type.Optional(Type.Union([Type.Literal('Pass'), Type.Literal('Warn'), Type.Literal('Fail')])),
    durationMs: Type.Optional(Type.Integer()),
    costUsd: Type.Optional(Type.Number({ description: 'From ChatModel:Pricing.' })),
    datasets: Type.Array(Type.String(), { description: 'Empty once the run’s submission was reclaimed.' }),
    report: Type.Optional(EvalReportSchema),
  },
  { $id: 'EvalRunResponse' },
);

export const EvalRunListSchema = Type.Object(
  {
    runs: Type.Array(Type.Object(EvalRunResponseSchema.properties), { description: 'Poll bodies, newest first.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' }),
  },
  { $id: 'EvalRunList' },
);

export const CancelEvalRunResponseSchema = Type.Object(
  { stopped: Type.Boolean({ description: 'True: cancelled before it started. False: already executing; it runs to completion.' }) },
  { $id: 'CancelEvalRunResponse' },
);

export const EvalJobParamsSchema = Type.Object({ jobId: PathId('The eval run’s job id.') });

export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];
export type Verdict = (typeof VERDICTS)[number];
export type StartEvalRunRequest = Static<typeof StartEvalRunRequestSchema>;
export type EvalReport = Static<typeof EvalReportSchema>;
export type EvalRunResponse = Static<typeof EvalRunResponseSchema>;
export type CancelEvalRunResponse = Static<typeof CancelEvalRunResponseSchema>;
