// Turns engine reports into the run record and its event log: each step change updates the step
// and appends a STEP frame; parking appends PARKED (the first pending approval) and sets Blocked.
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { redactedOutput } from './run-projection.js';
import type { WorkflowRun } from './workflow-run.js';

export class RunRecorder implements ExecutionObserver {
  readonly #run: WorkflowRun;

  constructor(run: WorkflowRun) {
    this.#run = run;
  }

  stepChanged(step: GraphStep, change: StepChange): void {
    const record = this.#run.stepsById.get(step.id);
    if (record === undefined) return;
    record.status = change.status;
    switch (change.status) {
      case 'Running':
        record.startedAt ??= change.at;
        break;
      case 'Waiting':
        break;
      case 'Succeeded':
        record.completedAt = change.at;
        record.output = change.output ?? null;
        if (change.usage) {
          record.usage = change.usage;
          this.#run.usage.inputTokens += change.usage.inputTokens;
          this.#run.usage.outputTokens += change.usage.outputTokens;
        }
        break;
      case 'Failed':
        record.completedAt = change.at;
        record.error = change.error;
        record.output = change.output ?? null;
        break;
      case 'Skipped':
        record.completedAt = change.at;
        break;
    }
    const status = change.status;
    this.#run.log.append((sequence) => ({
      type: 'STEP',
      sequence,
      stepName: record.name,
      stepId: record.id,
      status,
      ...(status === 'Succeeded' || (status === 'Failed' && record.output !== null) ? { output: redactedOutput(record) } : {}),
      ...(status === 'Failed' ? { error: record.error ?? '' } : {}),
    }));
  }

  runBlocked(): void {
    if (this.#run.status !== 'Running') return;
    const approval = this.#run.approvals.find((a) => a.state === 'Pending');
    if (approval === undefined) return;
    this.#run.status = 'Blocked';
    this.#run.parked = this.#run.log.append((sequence) => ({
      type: 'PARKED',
      sequence,
      approvalId: approval.approvalId,
      stepName: approval.stepName,
    }));
  }

  runResumed(): void {
    if (this.#run.status === 'Blocked') this.#run.status = 'Running';
  }
}
