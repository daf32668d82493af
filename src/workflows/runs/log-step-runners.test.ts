import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../platform/log/index.js';
import type { StepContext, StepOutcome, StepRunner, StepRunners } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { logStepRunners } from './log-step-runners.js';

const run = { jobId: 'job-1', workflowId: 'wf-1' };

function capture(level: 'info' | 'debug'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

/** Every step type runs `runner`; the test calls the ToolUse one. */
const all = (runner: StepRunner): StepRunners => ({ LlmCall: runner, ToolUse: runner, HumanGate: runner, ConditionalBranch: runner, SubPlanInvocation: runner, RetrievalPlan: runner });

function context(signal = new AbortController().signal): StepContext {
  const step = { index: 0, id: 'a', name: 'a', path: 'a', type: 'ToolUse', configuration: { type: 'ToolUse' }, successors: [], predecessorCount: 0 } as unknown as GraphStep;
  return { step, input: {}, steps: {}, signal, awaitApproval: () => Promise.reject(new Error('no gates')), runChild: () => Promise.reject(new Error('no children')) };
}

describe('logStepRunners', () => {
  it('writes a debug line per succeeded step only when debug is on', async () => {
    const ok: StepRunner = () => Promise.resolve({ ok: true, output: 1 });
    const quiet = capture('info');
    await expect(logStepRunners(all(ok), quiet.logger, run).ToolUse(context())).resolves.toEqual({ ok: true, output: 1 });
    expect(quiet.lines).toEqual([]);
    const chatty = capture('debug');
    await logStepRunners(all(ok), chatty.logger, run).ToolUse(context());
    expect(chatty.lines).toEqual([expect.objectContaining({ level: 20, jobId: 'job-1', workflowId: 'wf-1', step: 'a', type: 'ToolUse', msg: 'workflow step succeeded' })]);
  });

  it('writes an info line with the error for a failed step and passes the outcome on', async () => {
    const failed: StepOutcome = { ok: false, error: 'The tool reported a failure: nope' };
    const { logger, lines } = capture('info');
    await expect(logStepRunners(all(() => Promise.resolve(failed)), logger, run).ToolUse(context())).resolves.toBe(failed);
    expect(lines).toEqual([expect.objectContaining({ level: 30, jobId: 'job-1', step: 'a', error: failed.error, msg: 'workflow step failed' })]);
  });

  it('logs a runner that throws, synchronously or by rejecting, and rethrows it for the engine', async () => {
    const { logger, lines } = capture('info');
    const sync: StepRunner = () => {
      throw new Error('thrown at once');
    };
    const later: StepRunner = () => Promise.reject(new Error('rejected later'));
    await expect(logStepRunners(all(sync), logger, run).ToolUse(context())).rejects.toThrow('thrown at once');
    await expect(logStepRunners(all(later), logger, run).ToolUse(context())).rejects.toThrow('rejected later');
    expect(lines.map((line) => [line['level'], line['msg'], (line['err'] as { message: string }).message])).toEqual([
      [50, 'workflow step threw', 'thrown at once'],
      [50, 'workflow step threw', 'rejected later'],
    ]);
  });

  it('does not log a runner that threw because the run was stopping', async () => {
    const { logger, lines } = capture('info');
    const controller = new AbortController();
    controller.abort();
    await expect(logStepRunners(all(() => Promise.reject(new Error('stopped'))), logger, run).ToolUse(context(controller.signal))).rejects.toThrow('stopped');
    expect(lines).toEqual([]);
  });
});
