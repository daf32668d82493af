import { describe, expect, it } from 'vitest';
import type { RunningRun, SucceededRun } from './run-record.js';
import { runResponseOf, toRunResponse } from './run-response.js';

const base = { jobId: 'job-1', handle: 'h', ownerId: 'sub:a', mode: 'background' as const, createdAt: Date.UTC(2026, 10, 25) };
const running: RunningRun = { ...base, status: 'Running', input: { userMessages: ['go'], maxTurns: 1, conversationId: null, envelope: {} as RunningRun['input']['envelope'] }, startedAt: base.createdAt + 1 };
const succeeded: SucceededRun = {
  ...base,
  status: 'Succeeded',
  startedAt: base.createdAt + 1,
  completedAt: base.createdAt + 2,
  result: { conversationSucceeded: true, finalResponse: 'done', turnCount: 1, totalToolInvocations: 0, budgetExhausted: false, conversationError: null },
  usage: { inputTokens: 3, outputTokens: 4 },
};

describe('runResponseOf', () => {
  it('answers one frozen projection per finished record, equal to toRunResponse', () => {
    const first = runResponseOf(succeeded);
    expect(runResponseOf(succeeded)).toBe(first);
    expect(first).toEqual(toRunResponse(succeeded));
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('projects a live run afresh every time (it still changes)', () => {
    const first = runResponseOf(running);
    expect(runResponseOf(running)).not.toBe(first);
    expect(runResponseOf(running)).toEqual(first);
    expect(Object.isFrozen(first)).toBe(false);
  });

  it('projects another record of the same run (a newer version) anew', () => {
    const again: SucceededRun = { ...succeeded, completedAt: succeeded.completedAt + 1 };
    expect(runResponseOf(again)).not.toBe(runResponseOf(succeeded));
    expect(runResponseOf(again).completedAt).toBe(new Date(again.completedAt).toISOString());
  });
});
