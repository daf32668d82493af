// Follows one workflow run live: the poll body first, then the progress stream (SNAPSHOT, STEP …)
// applied onto it. The stream closes on PARKED (a human gate) — the run is then polled until someone
// answers and followed again — and on FINISHED. Pure frame application lives in applyFrame.
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/client';
import type { ProgressFrame, WorkflowRun } from '../api/types';

export const FINAL = new Set(['Succeeded', 'Failed', 'Cancelled']);
const BLOCKED_POLL_MS = 1500;
const RETRY_MS = 3000;

export function applyFrame(run: WorkflowRun, frame: ProgressFrame): WorkflowRun {
  switch (frame.type) {
    case 'SNAPSHOT':
      return { ...run, status: frame.status, steps: frame.steps };
    case 'STEP': {
      const known = run.steps.some((step) => step.name === frame.stepName);
      const patch = { status: frame.status, ...(frame.output === undefined ? {} : { output: frame.output }), error: frame.error ?? null };
      const steps = known
        ? run.steps.map((step) => (step.name === frame.stepName ? { ...step, ...patch } : step))
        : [...run.steps, { name: frame.stepName, id: frame.stepId, type: '', startedAt: null, completedAt: null, ...patch }];
      return { ...run, status: run.status === 'Queued' ? 'Running' : run.status, steps };
    }
    case 'FINISHED':
      return { ...run, status: frame.status, error: frame.error ?? run.error };
    case 'PARKED':
      return { ...run, status: 'Blocked' };
    case 'GAP':
      return run;
  }
}

export interface LiveRun {
  readonly run: WorkflowRun | undefined;
  readonly error: unknown;
  /** True while frames arrive from the progress stream. */
  readonly streaming: boolean;
}

export function useLiveRun(api: Api, workflowId: string, jobId: string, nudge = 0): LiveRun {
  const [state, setState] = useState<LiveRun>({ run: undefined, error: undefined, streaming: false });
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const base = `/api/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(jobId)}`;
    const pause = (ms: number) => new Promise<void>((resolve) => {
      const timer = window.setTimeout(resolve, ms);
      signal.addEventListener('abort', () => { window.clearTimeout(timer); resolve(); }, { once: true });
    });
    const follow = async (): Promise<void> => {
      while (!signal.aborted) {
        let run: WorkflowRun;
        try {
          run = await api.get<WorkflowRun>(base, signal);
        } catch (error) {
          if (signal.aborted) return;
          setState((previous) => ({ ...previous, error, streaming: false }));
          await pause(RETRY_MS);
          continue;
        }
        setState({ run, error: undefined, streaming: false });
        if (FINAL.has(run.status)) return;
        if (run.status === 'Blocked') {
          await pause(BLOCKED_POLL_MS);
          continue;
        }
        try {
          setState((previous) => ({ ...previous, streaming: true }));
          await api.stream<ProgressFrame>(`${base}/stream`, (frame) => {
            setState((previous) => (previous.run === undefined ? previous : { ...previous, run: applyFrame(previous.run, frame) }));
          }, signal);
        } catch (error) {
          if (signal.aborted) return;
          setState((previous) => ({ ...previous, error, streaming: false }));
          await pause(RETRY_MS);
        }
      }
    };
    void follow();
    return () => controller.abort();
  }, [api, workflowId, jobId, nudge]);
  return state;
}
