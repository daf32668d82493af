import { describe, expect, it } from 'vitest';
import type { CaseOutcome, CaseResult } from '../runner/case-execution.js';
import { buildReport } from './build-report.js';
import { verdictOf } from './verdict.js';

function result(caseId: string, outcome: CaseOutcome, repeat = 1, tags: string[] = []): CaseResult {
  return { dataset: 'd', caseId, tags, repeat, outcome, error: null, assertions: [], outputExcerpt: '', latencyMs: 1, tokens: { input: 100, output: 50 } };
}

const options = { datasets: ['d'], repeats: 1, failRateThreshold: 0, pricing: { inputPerMillionTokens: 3, outputPerMillionTokens: 15 } };

describe('verdictOf', () => {
  it('fails only when the fail rate exceeds the threshold, warns when only warnings remain', () => {
    expect(verdictOf({ passed: 1, failed: 1, warned: 0, errored: 0 }, 0.5)).toBe('Pass');
    expect(verdictOf({ passed: 1, failed: 1, warned: 0, errored: 0 }, 0.49)).toBe('Fail');
    expect(verdictOf({ passed: 1, failed: 0, warned: 0, errored: 1 }, 0)).toBe('Fail');
    expect(verdictOf({ passed: 1, failed: 0, warned: 1, errored: 0 }, 0)).toBe('Warn');
    expect(verdictOf({ passed: 2, failed: 0, warned: 0, errored: 0 }, 0)).toBe('Pass');
  });
});

describe('buildReport', () => {
  it('counts every repeat, tallies by dataset and tag, and prices the tokens', () => {
    const built = buildReport([result('a', 'passed', 1, ['x']), result('b', 'failed', 1, ['x', 'y']), result('c', 'warned'), result('d', 'errored')], options);
    expect(built.counts).toEqual({ passed: 1, failed: 1, warned: 1, errored: 1, total: 4 });
    expect(built.verdict).toBe('Fail');
    expect(built.costUsd).toBe(0.0042);
    expect(built.report).toMatchObject({
      failRate: 0.5,
      byDataset: [{ name: 'd', passed: 1, failed: 1, warned: 1, errored: 1 }],
      byTag: [
        { tag: 'x', passed: 1, failed: 1, warned: 0, errored: 0 },
        { tag: 'y', passed: 0, failed: 1, warned: 0, errored: 0 },
      ],
      tokens: { input: 400, output: 200 },
    });
  });

  it('classifies cases across repeats as stable-pass, flaky or stable-fail and reports pass^k', () => {
    const results = [
      ...[1, 2, 3].map((r) => result('stable', r === 2 ? 'warned' : 'passed', r)),
      ...[1, 2, 3].map((r) => result('flaky', r === 3 ? 'errored' : 'passed', r)),
      ...[1, 2, 3].map((r) => result('broken', 'failed', r)),
      ...[1, 2, 3].map((r) => result('lucky', r === 1 ? 'passed' : 'failed', r)),
    ];
    const { report } = buildReport(results, { ...options, repeats: 3 });
    expect(report.flakyCases).toBe(2);
    expect(report.passAtK).toBe(0.25);
  });
});
