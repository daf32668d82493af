import { describe, expect, it } from 'vitest';
import { DatasetInvalid } from './dataset-invalid.js';
import { DEFAULT_CASE_TIMEOUT_MS, parseDataset } from './parse-dataset.js';
import { DEFAULT_SYSTEM_PROMPT } from './read-subject.js';

const LIMITS = { maxAssertionsPerCase: 50 };
const yaml = (text: string) => parseDataset({ name: 'd', fileName: 'd.yaml', format: 'yaml' }, text, LIMITS);
const json = (value: unknown) => parseDataset({ name: 'd', fileName: 'd.json', format: 'json' }, JSON.stringify(value), LIMITS);
const jsonl = (text: string) => parseDataset({ name: 'd', fileName: 'd.jsonl', format: 'jsonl' }, text, LIMITS);

function problem(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetInvalid);
    return (error as DatasetInvalid).detail;
  }
  throw new Error('the dataset was accepted');
}

describe('parseDataset', () => {
  it('reads the YAML format of DESIGN §7 with its subject, tags, assertions and severities', () => {
    const dataset = yaml(`
description: Capital cities
subject:
  system: You are terse.
  tools: [knowledge]
timeoutSeconds: 30
cases:
  - id: france
    tags: [europe, europe]
    input: What is the capital of France?
    assert:
      - { type: icontains, value: paris }
      - { type: max-latency-ms, value: 8000, severity: warn }
  - messages: [first, second]
    timeoutSeconds: 1.5
`);
    expect(dataset).toMatchObject({ name: 'd', fileName: 'd.yaml', description: 'Capital cities' });
    expect(dataset.subject).toEqual({ kind: 'inline', systemPrompt: 'You are terse.', tools: ['knowledge'] });
    expect(dataset.cases[0]).toMatchObject({ id: 'france', tags: ['europe'], messages: ['What is the capital of France?'], timeoutMs: 30_000 });
    expect(dataset.cases[0]!.assertions.map((a) => [a.type, a.severity])).toEqual([['icontains', 'error'], ['max-latency-ms', 'warn']]);
    expect(dataset.cases[1]).toMatchObject({ id: 'case-2', messages: ['first', 'second'], timeoutMs: 1500 });
  });

  it('gives a dataset without subject the default system prompt and no tools; JSONL always has it', () => {
    expect(json({ cases: [{ input: 'hi' }] }).subject).toEqual({ kind: 'inline', systemPrompt: DEFAULT_SYSTEM_PROMPT, tools: [] });
    const lines = jsonl('{"id":"a","input":"x"}\n\n{"input":"y","tags":["t"]}\n');
    expect(lines.subject).toEqual({ kind: 'inline', systemPrompt: DEFAULT_SYSTEM_PROMPT, tools: [] });
    expect(lines.cases.map((c) => [c.id, c.timeoutMs])).toEqual([['a', DEFAULT_CASE_TIMEOUT_MS], ['line-3', DEFAULT_CASE_TIMEOUT_MS]]);
  });

  it('reads a host-agent subject', () => {
    expect(json({ subject: { agent: 'geo-expert' }, cases: [{ input: 'hi' }] }).subject).toEqual({ kind: 'agent', agent: 'geo-expert' });
  });

  it('names the file and the case in every error', () => {
    expect(problem(() => yaml('cases:\n  - id: a\n    input: hi\n    asserts: []\n'))).toBe(
      "Dataset file 'd.yaml', case 'a' (#1): the case has an unknown key 'asserts' (allowed: id, description, tags, input, messages, assert, timeoutSeconds, agent, recording).",
    );
    expect(problem(() => yaml('cases:\n  - input: hi\n  - input: hi\n    messages: [x]\n'))).toBe(
      "Dataset file 'd.yaml', case #2: input and messages are alternatives; give one.",
    );
    expect(problem(() => json({ cases: [{ id: 'x', input: 'a' }, { id: 'x', input: 'b' }] }))).toBe(
      "Dataset file 'd.json', case 'x': reuses an id another case of this dataset has.",
    );
    expect(problem(() => jsonl('{"input":"ok"}\n{"id":"b","input":"x","assert":[{"type":"equals"}]}\n'))).toBe(
      "Dataset file 'd.jsonl', line 2 (case 'b'): assert[0].value is required.",
    );
    expect(problem(() => jsonl('{"input":"ok"}\nnot json\n'))).toBe("Dataset file 'd.jsonl', line 2: is not valid JSON.");
  });

  it('refuses assertions it cannot check, at parse time', () => {
    const one = (assertion: unknown) => () => json({ cases: [{ id: 'c', input: 'x', assert: [assertion] }] });
    expect(problem(one({ type: 'regex', value: '(' }))).toMatch(/assert\[0\]\.value is not a valid regular expression/);
    expect(problem(one({ type: 'regex', value: 'a', flags: 'g' }))).toMatch(/assert\[0\]\.flags may only combine/);
    expect(problem(one({ type: 'json-schema', value: { type: 'nonsense' } }))).toMatch(/is not a valid JSON Schema/);
    expect(problem(one({ type: 'max-cost-usd', value: -1 }))).toMatch(/must be a number ≥ 0/);
    expect(problem(one({ type: 'icontains', value: 'x', severity: 'info' }))).toMatch(/severity must be 'error' or 'warn'/);
    expect(problem(one({ type: 'is-json', value: true }))).toMatch(/is not used by is-json/);
    expect(problem(one({ type: 'llm-rubric', value: '' }))).toMatch(/must be a non-empty string/);
  });

  it('accepts MaxAssertionsPerCase assertions on a case and refuses one more, naming the case', () => {
    const withAssertions = (n: number) => ({ cases: [{ id: 'c', input: 'x', assert: Array.from({ length: n }, () => ({ type: 'is-json' })) }] });
    expect(json(withAssertions(50)).cases[0]!.assertions).toHaveLength(50);
    expect(problem(() => json(withAssertions(51)))).toBe("Dataset file 'd.json', case 'c' (#1): assert must list at most 50 assertions.");
  });

  it('refuses a subject that is both a host agent and an inline prompt', () => {
    expect(problem(() => json({ subject: { agent: 'a', system: 'b' }, cases: [{ input: 'x' }] }))).toMatch(/subject names either a host agent/);
  });

  it('parses YAML safely: no custom tags, bounded aliases, unique keys', () => {
    expect(problem(() => yaml('cases: !!js/function "x"\n'))).toMatch(/not valid YAML|must list at least one case/);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 6 }, (_, i) => `${'bcdefg'[i]}: &${'bcdefg'[i]} [*${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}, *${'abcdef'[i]}]`), 'cases: *g'];
    expect(problem(() => yaml(bomb.join('\n')))).toMatch(/alias/);
    expect(problem(() => yaml('cases: []\ncases: []\n'))).toMatch(/not valid YAML/);
  });

  it('refuses JSON that is nested too deep or carries prototype keys', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(problem(() => parseDataset({ name: 'd', fileName: 'd.json', format: 'json' }, deep, LIMITS))).toMatch(/nested deeper than 64/);
    expect(problem(() => parseDataset({ name: 'd', fileName: 'd.json', format: 'json' }, '{"__proto__":{"x":1},"cases":[]}', LIMITS))).toMatch(/not valid JSON/);
  });
});
