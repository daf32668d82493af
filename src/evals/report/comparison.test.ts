import { describe, expect, it } from 'vitest';
import type { CaseOutcome, CaseResult } from '../runner/case-execution.js';
import { caseOutcomes, compare } from './comparison.js';
import { junitXml } from './junit-xml.js';

const result = (dataset: string, caseId: string, outcome: CaseOutcome, repeat = 1): CaseResult => ({
  dataset,
  caseId,
  tags: [],
  repeat,
  outcome,
  error: outcome === 'errored' ? 'boom' : null,
  assertions: [],
  outputExcerpt: '',
  latencyMs: 10,
  tokens: { input: 0, output: 0 },
});

describe('caseOutcomes', () => {
  it('takes each case\'s most frequent outcome across repeats, a tie going to the lower rank', () => {
    const results = [
      result('d', 'mostly', 'passed', 1),
      result('d', 'mostly', 'failed', 2),
      result('d', 'mostly', 'passed', 3),
      result('d', 'tie', 'passed', 1),
      result('d', 'tie', 'warned', 2),
      result('d', 'broken', 'failed', 1),
      result('d', 'broken', 'errored', 2),
    ];
    expect(caseOutcomes(results)).toEqual([
      { dataset: 'd', caseId: 'mostly', outcome: 'passed' },
      { dataset: 'd', caseId: 'tie', outcome: 'warned' },
      { dataset: 'd', caseId: 'broken', outcome: 'errored' },
    ]);
  });
});

describe('compare', () => {
  it('ranks passed > warned > failed = errored, matches own datasets across versions, and leaves out cases in one run only', () => {
    const baseline = {
      jobId: 'base',
      cases: [
        { dataset: 'mine/faq@1', caseId: 'a', outcome: 'passed' as const },
        { dataset: 'mine/faq@1', caseId: 'b', outcome: 'warned' as const },
        { dataset: 'mine/faq@1', caseId: 'c', outcome: 'failed' as const },
        { dataset: 'mine/faq@1', caseId: 'gone', outcome: 'passed' as const },
        { dataset: 'host', caseId: 'a', outcome: 'errored' as const },
      ],
    };
    const now = [result('mine/faq@2', 'a', 'warned'), result('mine/faq@2', 'b', 'passed'), result('mine/faq@2', 'c', 'errored'), result('mine/faq@2', 'new', 'failed'), result('host', 'a', 'passed')];
    expect(compare(baseline, now)).toEqual({
      baseline: 'base',
      regressions: [{ dataset: 'mine/faq@2', caseId: 'a', was: 'passed', now: 'warned' }],
      improvements: [
        { dataset: 'mine/faq@2', caseId: 'b', was: 'warned', now: 'passed' },
        { dataset: 'host', caseId: 'a', was: 'errored', now: 'passed' },
      ],
      unchanged: 1,
    });
  });
});

describe('junitXml with regressions', () => {
  it('marks each execution of a regressed case, and makes a regression to a warning a failure', () => {
    const xml = junitXml({
      jobId: 'j',
      datasets: ['d'],
      repeats: 1,
      cases: [result('d', 'warned-now', 'warned'), result('d', 'steady', 'passed')],
      durationMs: 20,
      regressions: [{ dataset: 'd', caseId: 'warned-now', was: 'passed', now: 'warned' }],
    });
    expect(xml).toContain('<testsuite name="d" tests="2" failures="1" errors="0"');
    expect(xml).toContain('<property name="regression" value="passed → warned"/>');
    expect(xml).toContain('<failure type="regression" message="regressed against the baseline: passed → warned"/>');
    expect(xml).toMatch(/<testcase classname="d" name="steady" time="0.010"\/>/);
  });
});
