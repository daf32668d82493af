// Step outcomes are logged from the engine's reports: a debug line per succeeded step only when debug
// is on, an info line with the error per failed step; every report still reaches the recorder.
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../platform/log/index.js';
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { LogStepOutcomes } from './log-step-outcomes.js';

const run = { jobId: 'job-1', workflowId: 'wf-1' };
const step = { index: 0, id: 'a', name: 'a', path: 'sub/a', type: 'ToolUse', configuration: { type: 'ToolUse' }, successors: [], predecessorCount: 0 } as unknown as GraphStep;

function capture(level: 'info' | 'debug'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

function recorder(): ExecutionObserver & { readonly seen: string[] } {
  const seen: string[] = [];
  return { seen, stepChanged: (_step, change) => void seen.push(change.status), runBlocked: () => void seen.push('blocked'), runResumed: () => void seen.push('resumed') };
}

const succeeded: StepChange = { status: 'Succeeded', at: 1, output: 1 };
const failed: StepChange = { status: 'Failed', at: 2, error: 'The tool reported a failure: nope' };

describe('LogStepOutcomes', () => {
  it('writes a debug line per succeeded step only when debug is on', () => {
    const quiet = capture('info');
    new LogStepOutcomes(recorder(), quiet.logger, run).stepChanged(step, succeeded);
    expect(quiet.lines).toEqual([]);
    const chatty = capture('debug');
    new LogStepOutcomes(recorder(), chatty.logger, run).stepChanged(step, succeeded);
    expect(chatty.lines).toEqual([expect.objectContaining({ level: 20, jobId: 'job-1', workflowId: 'wf-1', step: 'sub/a', type: 'ToolUse', msg: 'workflow step succeeded' })]);
  });

  it('writes an info line with the error for a failed step, and nothing for other changes', () => {
    const { logger, lines } = capture('info');
    const observer = new LogStepOutcomes(recorder(), logger, run);
    observer.stepChanged(step, { status: 'Running', at: 0 });
    observer.stepChanged(step, failed);
    observer.stepChanged(step, { status: 'Skipped', at: 3 });
    expect(lines).toEqual([expect.objectContaining({ level: 30, jobId: 'job-1', step: 'sub/a', error: failed.error, msg: 'workflow step failed' })]);
  });

  it('passes every report on to the observer it wraps, in order', () => {
    const inner = recorder();
    const observer = new LogStepOutcomes(inner, capture('info').logger, run);
    observer.stepChanged(step, { status: 'Running', at: 0 });
    observer.runBlocked();
    observer.runResumed();
    observer.stepChanged(step, failed);
    expect(inner.seen).toEqual(['Running', 'blocked', 'resumed', 'Failed']);
  });
});
