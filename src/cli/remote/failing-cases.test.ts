// failingCases reads back what the service's JUnit writer (src/evals/report/junit-xml.ts) writes: the
// cases that failed or errored, by dataset and name, with the report's message, entities decoded.
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../evals/runner/case-execution.js';
import { junitXml } from '../../evals/report/junit-xml.js';
import { failingCaseLine, failingCases } from './failing-cases.js';

const result = (caseId: string, outcome: CaseResult['outcome'], extra: Partial<CaseResult> = {}): CaseResult => ({
  dataset: 'mine/trips@2',
  caseId,
  tags: [],
  repeat: 1,
  outcome,
  error: null,
  assertions: [],
  outputExcerpt: '',
  latencyMs: 10,
  tokens: { input: 0, output: 0 },
  ...extra,
});

describe('failingCases', () => {
  it('names each failed and errored case with its message, in report order, and none that passed or only warned', () => {
    const cases = [
      result('ok', 'passed'),
      result('wrong <total>', 'failed', { assertions: [{ type: 'equals', severity: 'error', passed: false, reason: 'expected "42" & got "41"' }] }),
      result('warned', 'warned', { assertions: [{ type: 'icontains', severity: 'warn', passed: false, reason: 'no greeting' }] }),
      result('diverged', 'errored', { error: 'Replay diverged at step 2.' }),
    ];
    const xml = junitXml({ jobId: 'j', datasets: ['mine/trips@2'], repeats: 1, cases, durationMs: 40 });
    expect(failingCases(xml)).toEqual([
      { outcome: 'failed', dataset: 'mine/trips@2', name: 'wrong <total>', message: 'equals: expected "42" & got "41"' },
      { outcome: 'errored', dataset: 'mine/trips@2', name: 'diverged', message: 'Replay diverged at step 2.' },
    ]);
  });

  it('names repeats apart, and leaves a regression that only warned to the summary’s regressed lines', () => {
    const warnedNow = result('greets', 'warned', { assertions: [{ type: 'icontains', severity: 'warn', passed: false, reason: 'no greeting' }] });
    const failedTwice = [1, 2].map((repeat) => result('adds', 'failed', { repeat, assertions: [{ type: 'contains', severity: 'error', passed: false, reason: 'no 4' }] }));
    const xml = junitXml({
      jobId: 'j',
      datasets: ['mine/trips@2'],
      repeats: 2,
      cases: [warnedNow, ...failedTwice],
      durationMs: 40,
      regressions: [{ dataset: 'mine/trips@2', caseId: 'greets', was: 'passed', now: 'warned' }],
    });
    expect(xml).toContain('<failure type="regression"');
    expect(failingCases(xml).map((c) => `${c.outcome} ${c.name}`)).toEqual(['failed adds [repeat 1/2]', 'failed adds [repeat 2/2]']);
  });

  it('finds nothing in a report where every case passed, or one with no suite', () => {
    expect(failingCases(junitXml({ jobId: 'j', datasets: ['d'], repeats: 1, cases: [{ ...result('ok', 'passed'), dataset: 'd' }], durationMs: 1 }))).toEqual([]);
    expect(failingCases('<?xml version="1.0"?><testsuites name="x" tests="0"/>')).toEqual([]);
  });

  it('decodes a line break the writer encoded in an attribute, and the summary line keeps to one line of at most 200 characters', () => {
    const xml = junitXml({ jobId: 'j', datasets: ['mine/trips@2'], repeats: 1, cases: [result('two-lines', 'errored', { error: 'first line\n  second line' })], durationMs: 1 });
    const [failing] = failingCases(xml);
    expect(failing?.message).toBe('first line\n  second line');
    expect(failingCaseLine(failing!)).toBe('  errored mine/trips@2 two-lines: first line second line');
    const long = failingCaseLine({ outcome: 'failed', dataset: 'd', name: 'n', message: 'x'.repeat(300) });
    expect(long).toBe(`  failed d n: ${'x'.repeat(200)}…`);
  });
});
