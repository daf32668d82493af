// What only a run started now takes beside its schedulable settings (DESIGN §19): an uploaded bundle
// as every case's subject, a baseline run to compare with, and whether a regression fails the run.
// A schedule's eval target has none of them (a handle expires, a baseline is one moment's).
import type { EvalRunRequest, StartEvalRunRequest } from '../api/types';

export interface EvalRunOptions {
  /** A live bundle handle of mine, or '' for each dataset's own subject. */
  readonly handle: string;
  /** The jobId of a Succeeded eval run of mine, or '' for none. */
  readonly baseline: string;
  readonly failOnRegression: boolean;
}

export const NO_EVAL_RUN_OPTIONS: EvalRunOptions = { handle: '', baseline: '', failOnRegression: false };

/** The start request with the options chosen; failOnRegression only with a baseline (there is nothing to regress from otherwise). */
export function withRunOptions(request: EvalRunRequest, options: EvalRunOptions): StartEvalRunRequest {
  return {
    ...request,
    ...(options.handle === '' ? {} : { subject: { handle: options.handle } }),
    ...(options.baseline === '' ? {} : { baseline: options.baseline, ...(options.failOnRegression ? { failOnRegression: true } : {}) }),
  };
}
