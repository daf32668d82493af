import { describe, expect, it } from 'vitest';
import type { BundleRun } from '../api/types';
import { runSummary, stoppedEarly } from './run-summary';

const run = (patch: Partial<BundleRun>): BundleRun => ({
  jobId: 'job-1',
  status: 'Succeeded',
  error: null,
  createdAt: '2025-01-15T12:00:00Z',
  completedAt: '2025-01-15T12:00:01Z',
  result: { conversationSucceeded: true, finalResponse: 'hi', turnCount: 1, totalToolInvocations: 2, budgetExhausted: false, conversationError: null },
  ...patch,
});

describe('runSummary', () => {
  it('gives turns, tool calls, tokens and their cost', () => {
    expect(runSummary(run({ usage: { inputTokens: 1200, outputTokens: 34, costUsd: 0.0123 } }))).toBe('1 turn(s), 2 tool call(s) · 1,234 tokens · $0.0123');
  });

  it('leaves out what the poll body does not have', () => {
    expect(runSummary(run({ usage: { inputTokens: 10, outputTokens: 2 } }))).toBe('1 turn(s), 2 tool call(s) · 12 tokens');
    expect(runSummary(run({ status: 'Running', result: null }))).toBe('');
  });
});

describe('stoppedEarly', () => {
  it('names the reason a run stopped on its budget, and nothing otherwise', () => {
    const limited = run({ result: { conversationSucceeded: true, finalResponse: '', turnCount: 1, totalToolInvocations: 0, budgetExhausted: true, conversationError: 'The spend limit was reached.' } });
    expect(stoppedEarly(limited)).toBe('The spend limit was reached.');
    expect(stoppedEarly(run({}))).toBeNull();
  });
});
