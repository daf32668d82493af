// What the engine reports while it runs: every step state change, and the run parking on gates
// (nothing running, at least one gate waiting) or resuming. The run recorder turns these into the
// run record and its numbered event log; tests record them.
import type { StepUsage } from './step-runner.js';
import type { GraphStep } from './workflow-graph.js';

export type StepChange =
  | { readonly status: 'Running'; readonly at: number }
  | { readonly status: 'Waiting'; readonly at: number; readonly approvalId: string }
  /** `redacted`: the output as shown outside the run, when the step's runner knew it (else the recorder redacts). */
  | { readonly status: 'Succeeded'; readonly at: number; readonly output: unknown; readonly redacted?: unknown; readonly usage?: StepUsage; readonly take?: readonly string[] }
  | { readonly status: 'Failed'; readonly at: number; readonly error: string; readonly output?: unknown }
  | { readonly status: 'Skipped'; readonly at: number };

export interface ExecutionObserver {
  stepChanged(step: GraphStep, change: StepChange): void;
  runBlocked(): void;
  runResumed(): void;
}
