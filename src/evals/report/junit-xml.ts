// The finished run as JUnit XML (GET /api/evals/runs/{jobId}/report.xml), so CI systems can show it:
// one <testsuite> per dataset, one <testcase> per case × repeat. Failed error-severity assertions are a
// <failure>, an errored case is an <error>, warnings and llm-rubric reasons go to <system-out>. Every
// text that came from a model was redacted when the results were filed. Times are case time: a suite's
// is the sum of its cases' latencies and <testsuites> the sum of its suites', so the totals add up the
// way JUnit readers expect even when cases ran in parallel (the wall-clock durationMs is in the poll).
// A run compared with a baseline (DESIGN §19) marks each execution of a regressed case with a
// `regression` property ("passed → warned"), and one that neither failed nor errored (a pass that
// became a warning) with a <failure type="regression">, so CI shows every regression as a failure.
import type { CaseResult } from '../runner/case-execution.js';
import type { CaseChange } from './comparison.js';
import { xmlAttribute, xmlText } from './xml-text.js';

export interface JunitRun {
  readonly jobId: string;
  readonly datasets: readonly string[];
  readonly repeats: number;
  readonly cases: readonly CaseResult[];
  readonly durationMs: number;
  /** The comparison's regressions, when the run had a baseline. */
  readonly regressions?: readonly CaseChange[];
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);
const caseTime = (cases: readonly CaseResult[]): number => cases.reduce((sum, c) => sum + c.latencyMs, 0);

export function junitXml(run: JunitRun): string {
  const regressions = new Map((run.regressions ?? []).map((change) => [JSON.stringify([change.dataset, change.caseId]), change]));
  const regressionOf = (c: CaseResult): CaseChange | undefined => regressions.get(JSON.stringify([c.dataset, c.caseId]));
  const failing = (c: CaseResult): boolean => c.outcome === 'failed' || (c.outcome !== 'errored' && regressionOf(c) !== undefined);
  const suites = run.datasets.map((name) => testSuite(name, run.cases.filter((c) => c.dataset === name), run.repeats, regressionOf, failing));
  const failures = run.cases.filter(failing).length;
  const errors = run.cases.filter((c) => c.outcome === 'errored').length;
  const time = caseTime(run.cases.filter((c) => run.datasets.includes(c.dataset)));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(`portcullis eval ${run.jobId}`)}" tests="${run.cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

type RegressionOf = (c: CaseResult) => CaseChange | undefined;

function testSuite(name: string, cases: readonly CaseResult[], repeats: number, regressionOf: RegressionOf, failing: (c: CaseResult) => boolean): string {
  const failures = cases.filter(failing).length;
  const errors = cases.filter((c) => c.outcome === 'errored').length;
  const time = caseTime(cases);
  const open = `  <testsuite name="${xmlAttribute(name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(time)}">`;
  return [open, ...cases.map((c) => testCase(c, repeats, regressionOf(c))), '  </testsuite>'].join('\n');
}

function testCase(result: CaseResult, repeats: number, regression: CaseChange | undefined): string {
  const name = repeats > 1 ? `${result.caseId} [repeat ${result.repeat}/${repeats}]` : result.caseId;
  const open = `    <testcase classname="${xmlAttribute(result.dataset)}" name="${xmlAttribute(name)}" time="${seconds(result.latencyMs)}"`;
  const body: string[] = [];
  const change = regression === undefined ? null : `${regression.was} → ${regression.now}`;
  if (change !== null) body.push(`      <properties><property name="regression" value="${xmlAttribute(change)}"/></properties>`);
  if (result.outcome === 'errored') {
    body.push(`      <error type="errored" message="${xmlAttribute(result.error ?? 'errored')}"/>`);
  }
  const failed = result.assertions.filter((a) => !a.passed && a.severity === 'error');
  if (failed.length > 0) {
    const [first] = failed;
    const lines = failed.map((a) => `${a.type}: ${a.reason ?? 'failed'}`);
    const text = [...lines, '', 'Output:', result.outputExcerpt].join('\n');
    body.push(`      <failure type="${xmlAttribute(first?.type ?? 'assertion')}" message="${xmlAttribute(`${first?.type}: ${first?.reason ?? 'failed'}`)}">${xmlText(text)}</failure>`);
  }
  if (change !== null && result.outcome !== 'errored' && failed.length === 0) {
    body.push(`      <failure type="regression" message="${xmlAttribute(`regressed against the baseline: ${change}`)}"/>`);
  }
  const notes = result.assertions
    .filter((a) => (!a.passed && a.severity === 'warn') || (a.passed && a.reason !== null))
    .map((a) => `${a.passed ? 'note' : 'warning'} ${a.type}: ${a.reason ?? ''}`);
  if (notes.length > 0) body.push(`      <system-out>${xmlText(notes.join('\n'))}</system-out>`);
  return body.length === 0 ? `${open}/>` : [`${open}>`, ...body, '    </testcase>'].join('\n');
}
