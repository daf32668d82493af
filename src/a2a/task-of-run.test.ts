import { describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import type { BundleRunRecord } from '../bundles/index.js';
import { taskOf } from './task-of-run.js';

const base = { jobId: 'job-1', handle: 'h', ownerId: 'sub:ana', mode: 'background', createdAt: 0, channel: 'a2a', contextId: 'ctx-1' } as const;
const input = { userMessages: ['hi'], maxTurns: 1, conversationId: 'ctx-1', envelope: {} as never };
const result = { conversationSucceeded: true, finalResponse: 'done', turnCount: 1, totalToolInvocations: 0, budgetExhausted: false, conversationError: null };

describe('taskOf', () => {
  it('maps each run state to A2A’s: id the job, contextId the conversation', () => {
    const queued: BundleRunRecord = { ...base, status: 'Queued', input, reservationExpiresAt: null };
    expect(taskOf(queued)).toMatchObject({ id: 'job-1', contextId: 'ctx-1', status: { state: TaskState.TASK_STATE_SUBMITTED }, artifacts: [] });
    expect(taskOf({ ...base, status: 'Running', input, startedAt: 1 }).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const done = taskOf({ ...base, status: 'Succeeded', startedAt: 1, completedAt: 2, result, usage: { inputTokens: 1, outputTokens: 1 } });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'done' });
    expect(done.metadata).toBeUndefined();
  });

  it('says how a run ended short: a failed conversation FAILED, a cancelled run CANCELED, a budget in the metadata', () => {
    const failed = taskOf({ ...base, status: 'Succeeded', startedAt: 1, completedAt: 2, result: { ...result, conversationSucceeded: false, conversationError: 'The model failed.' }, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'The model failed.' });
    expect(taskOf({ ...base, status: 'Failed', startedAt: 1, completedAt: 2, error: 'The run was cancelled.' }).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(taskOf({ ...base, status: 'Failed', startedAt: 1, completedAt: 2, error: 'bundle_run.unhandled_exception' }).status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const short = taskOf({ ...base, status: 'Succeeded', startedAt: 1, completedAt: 2, result: { ...result, budgetExhausted: true, conversationError: 'The spend limit was reached.' }, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(short.metadata).toEqual({ budgetExhausted: true, conversationError: 'The spend limit was reached.' });
  });

  it('shows a waiting call as INPUT_REQUIRED with its data part', () => {
    const running: BundleRunRecord = { ...base, status: 'Running', input, startedAt: 1 };
    const task = taskOf(running, { approvalId: 'ap-1', tool: 'clock', operation: 'now', arguments: '{}', expiresAt: 86_400_000, createdAt: 5 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const data = task.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content;
    expect(data).toEqual({ $case: 'data', value: { approvalId: 'ap-1', tool: 'clock', operation: 'now', arguments: '{}', expiresAt: '1970-01-02T00:00:00.000Z' } });
  });
});
