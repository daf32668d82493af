// An eval run's progress: eval runs have no stream endpoint, so this polls the run and yields its
// poll body whenever its status or its progress (judged case executions) changes, ending with the
// finished run (Succeeded, Failed, Cancelled).
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { unwrap } from './unwrap.js';
import { delay } from './delay.js';

export type EvalRun = components['schemas']['EvalRunResponse'];

export interface EvalProgressOptions {
  /** Time between polls (default 1000 ms). */
  readonly intervalMs?: number;
  readonly signal?: AbortSignal;
}

const FINISHED = new Set<EvalRun['status']>(['Succeeded', 'Failed', 'Cancelled']);

export async function* evalProgress(api: Client<paths>, jobId: string, options: EvalProgressOptions = {}): AsyncGenerator<EvalRun> {
  let last: string | undefined;
  for (;;) {
    const run = await unwrap(api.GET('/api/evals/runs/{jobId}', { params: { path: { jobId } }, ...(options.signal ? { signal: options.signal } : {}) }));
    const seen = `${run.status} ${run.progress?.completed ?? ''}`;
    if (seen !== last) {
      last = seen;
      yield run;
    }
    if (FINISHED.has(run.status)) return;
    await delay(options.intervalMs ?? 1000, options.signal);
  }
}
