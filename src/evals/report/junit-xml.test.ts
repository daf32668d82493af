import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../runner/case-execution.js';
import { junitXml } from './junit-xml.js';
import { xmlAttribute, xmlText } from './xml-text.js';

describe('xml escaping', () => {
  it('escapes markup and replaces characters XML 1.0 cannot carry', () => {
    expect(xmlText('a<b>&"c\'\u0000\u0007\uFFFE')).toBe('a&lt;b&gt;&amp;&quot;c&apos;\uFFFD\uFFFD\uFFFD');
    expect(xmlAttribute('line1\nline2\tend')).toBe('line1&#10;line2&#9;end');
  });
});

describe('junitXml', () => {
  it('renders a suite per dataset and a testcase per case × repeat', () => {
    const failed: CaseResult = {
      dataset: 'd<1>',
      caseId: 'c',
      tags: [],
      repeat: 2,
      outcome: 'failed',
      error: null,
      assertions: [{ type: 'contains', severity: 'error', passed: false, reason: 'expected "x"' }],
      outputExcerpt: '<script>',
      latencyMs: 1500,
      tokens: { input: 0, output: 0 },
    };
    const xml = junitXml({ jobId: 'j', datasets: ['d<1>'], repeats: 2, cases: [failed], durationMs: 2000 });
    expect(xml).toContain('<testsuites name="portcullis eval j" tests="1" failures="1" errors="0" skipped="0" time="1.500">');
    expect(xml).toContain('<testsuite name="d&lt;1&gt;" tests="1" failures="1" errors="0" skipped="0" time="1.500">');
    expect(xml).toContain('<testcase classname="d&lt;1&gt;" name="c [repeat 2/2]" time="1.500">');
    expect(xml).toContain('<failure type="contains" message="contains: expected &quot;x&quot;">');
    expect(xml).toContain('Output:\n&lt;script&gt;</failure>');
  });

  it('never gives a suite more time than the whole report when cases ran in parallel', () => {
    const result = (dataset: string, caseId: string, latencyMs: number): CaseResult => ({
      dataset, caseId, tags: [], repeat: 1, outcome: 'passed', error: null, assertions: [], outputExcerpt: '', latencyMs, tokens: { input: 0, output: 0 },
    });
    const cases = [result('a', '1', 900), result('a', '2', 800), result('b', '3', 700)];
    const xml = junitXml({ jobId: 'j', datasets: ['a', 'b'], repeats: 1, cases, durationMs: 1000 });
    const times = [...xml.matchAll(/<testsuites? [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(times).toEqual([2.4, 1.7, 0.7]);
  });
});
