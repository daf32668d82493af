import { describe, expect, it } from 'vitest';
import { assertionText, caseInput, caseName } from './dataset-case-text';

describe('a dataset case as text', () => {
  it('is named by its id, else by its position as the service names it', () => {
    expect(caseName({ id: 'france', input: 'x' }, 0)).toBe('france');
    expect(caseName({ input: 'x' }, 1)).toBe('case-2');
    expect(caseName({ id: null, input: 'x' }, 2)).toBe('case-3');
  });

  it('shows its input, or its messages one per line', () => {
    expect(caseInput({ input: 'What is 2 + 2?' })).toBe('What is 2 + 2?');
    expect(caseInput({ messages: ['first', 'second'] })).toBe('first\nsecond');
  });

  it('shows each assertion in one line: its value as JSON, regex flags, a warning marked, a long value cut', () => {
    expect(assertionText({ type: 'icontains', value: 'paris' })).toBe('icontains "paris"');
    expect(assertionText({ type: 'max-latency-ms', value: 8000, severity: 'warn' })).toBe('max-latency-ms 8000 (warn)');
    expect(assertionText({ type: 'regex', value: '^a', flags: 'i', severity: 'error' })).toBe('regex "^a" /i');
    expect(assertionText({ type: 'is-json' })).toBe('is-json');
    const long = assertionText({ type: 'json-schema', value: { type: 'object', properties: { sum: { const: 5 }, note: { type: 'string', maxLength: 100 } } } });
    expect(long).toHaveLength('json-schema '.length + 80);
    expect(long.endsWith('…')).toBe(true);
  });
});
