import { describe, expect, it } from 'vitest';
import { redactValue, secretRules } from '../../platform/redaction/index.js';
import type { CaseResult } from './case-execution.js';
import { redactCaseResult } from './redact-case-result.js';

const clean: CaseResult = {
  dataset: 'support',
  caseId: 'refund-1',
  tags: ['billing', 'smoke'],
  repeat: 2,
  outcome: 'failed',
  error: null,
  assertions: [
    { type: 'equals', severity: 'error', passed: false, reason: 'expected "ok", got "no"' },
    { type: 'llm-rubric', severity: 'warn', passed: true, reason: null },
  ],
  outputExcerpt: 'The refund of $12 was sent.',
  latencyMs: 104,
  tokens: { input: 120, output: 14 },
};

/** Every string of a CaseResult, set in turn to `text`. */
function withText(text: string): CaseResult[] {
  const first = clean.assertions[0]!;
  return [
    { ...clean, dataset: text },
    { ...clean, caseId: text },
    { ...clean, tags: ['billing', text] },
    { ...clean, error: text, outcome: 'errored' },
    { ...clean, outputExcerpt: text },
    { ...clean, assertions: [{ ...first, reason: text }] },
    { ...clean, assertions: [{ ...first, type: text as 'equals' }] },
  ];
}

describe('redactCaseResult', () => {
  it('keeps a result that carries nothing to redact as it is, which is what redactValue would copy', () => {
    expect(redactCaseResult(clean)).toBe(clean);
    expect(redactValue(clean)).toEqual(clean);
  });

  it('redacts a secret in any of its strings exactly as redactValue does, every rule’s examples', () => {
    let redacted = 0;
    for (const rule of secretRules) {
      for (const [text] of rule.examples.detects) {
        for (const result of withText(`see ${text} here`)) {
          const kept = redactCaseResult(result);
          expect(kept).toEqual(redactValue(result));
          if (kept !== result) redacted += 1;
        }
      }
    }
    expect(redacted).toBeGreaterThan(0);
  });

  it('leaves texts with escapes, anchors without a secret and unknown shapes to redactValue', () => {
    for (const text of ['a\\u0041b', 'the token is gone', 'password reset', 'https://example.com/x']) {
      for (const result of withText(text)) expect(redactCaseResult(result)).toEqual(redactValue(result));
    }
    const extra = { ...clean, note: 'api_key=sk-abcdefghijklmnopqrstuvwxyz012345' } as CaseResult;
    expect(redactCaseResult(extra)).toEqual(redactValue(extra));
    expect(redactCaseResult(extra)).not.toBe(extra);
  });
});
