// Every assertion type of DESIGN.md §7, passing and failing, over HTTP: a case per outcome, its verdict
// read back from the run's counts and its JUnit report. llm-rubric is graded by a real OpenAI-compatible
// server on loopback (the fake), which answers pass or fail with a reason.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import type { TestApp } from '../helpers/test-app.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { buildEvalApp, junit, runToEnd, startEvalHarness, tokenFor, writeDatasets, SteerableModel, type EvalHarness } from './evals-harness.js';

let harness: EvalHarness;
let t: TestApp;
const clock = new ManualClock(Date.now() + 60_000);

const schema = {
  type: 'object',
  required: ['name', 'age'],
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
};

/** [case id, input, assertion] — each id ends in -passes or -fails. */
const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['equals-passes', 'reply:exactly this', { type: 'equals', value: 'exactly this' }],
  ['equals-fails', 'reply:exactly this!', { type: 'equals', value: 'exactly this' }],
  ['equals-json-passes', 'reply:{ "a": [1, 2] }', { type: 'equals', value: { a: [1, 2] } }],
  ['equals-json-fails', 'reply:{ "a": [2, 1] }', { type: 'equals', value: { a: [1, 2] } }],
  ['contains-passes', 'reply:The capital is Paris.', { type: 'contains', value: 'Paris' }],
  ['contains-fails', 'reply:The capital is paris.', { type: 'contains', value: 'Paris' }],
  ['icontains-passes', 'reply:PARIS', { type: 'icontains', value: 'paris' }],
  ['icontains-fails', 'reply:Lyon', { type: 'icontains', value: 'paris' }],
  ['not-contains-passes', 'reply:all clear', { type: 'not-contains', value: 'secret' }],
  ['not-contains-fails', 'reply:the secret is out', { type: 'not-contains', value: 'secret' }],
  ['regex-passes', 'reply:Order #12345 shipped', { type: 'regex', value: '#\\d{5}\\b' }],
  ['regex-flags-passes', 'reply:ERROR: disk full', { type: 'regex', value: '^error:', flags: 'i' }],
  ['regex-fails', 'reply:Order shipped', { type: 'regex', value: '#\\d{5}\\b' }],
  ['is-json-passes', 'reply:{"ok": true}', { type: 'is-json' }],
  ['is-json-fenced-passes', 'reply:```json\n{"ok": true}\n```', { type: 'is-json' }],
  ['is-json-fails', 'reply:ok: true', { type: 'is-json' }],
  ['json-schema-passes', 'reply:{"name": "Ada", "age": 36}', { type: 'json-schema', value: schema }],
  ['json-schema-fails', 'reply:{"name": "Ada", "age": "old"}', { type: 'json-schema', value: schema }],
  ['tool-called-passes', 'call clock now {"timeZone":"UTC"}', { type: 'tool-called', value: 'clock' }],
  ['tool-called-fails', 'reply:I know the time without tools.', { type: 'tool-called', value: 'clock' }],
  ['max-latency-ms-passes', 'slow:900 reply:quick enough', { type: 'max-latency-ms', value: 1000 }],
  ['max-latency-ms-fails', 'slow:5000 reply:too slow', { type: 'max-latency-ms', value: 1000 }],
  // Each reply costs exactly $2 under the pricing below.
  ['max-cost-usd-passes', 'reply:cheap', { type: 'max-cost-usd', value: 2 }],
  ['max-cost-usd-fails', 'reply:expensive', { type: 'max-cost-usd', value: 1.99 }],
];

const pricing = { ChatModel: { Pricing: { InputPerMillionTokens: 100_000, OutputPerMillionTokens: 200_000 } } };

beforeAll(async () => {
  harness = await startEvalHarness();
  await writeDatasets(join(harness.root, 'datasets'), {
    'assertions.json': {
      subject: { system: 'You answer tersely.', tools: ['clock'] },
      cases: CASES.map(([id, input, assertion]) => ({ id, tags: [id.endsWith('-passes') ? 'passes' : 'fails'], input, assert: [assertion] })),
    },
  });
  t = await buildEvalApp(harness, pricing, { chatModel: new SteerableModel(clock), clock }, [join(harness.root, 'datasets')]);
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('assertion types', () => {
  it('each type passes on a matching output and fails, with its reason in report.xml, on a mismatching one', async () => {
    const headers = await tokenFor(harness, 'asserter');
    // One case at a time, so each case's latency is its own under the manual clock.
    const done = await runToEnd(t, headers, { datasets: ['assertions'], parallelism: 1 });
    const passing = CASES.filter(([id]) => id.endsWith('-passes')).length;
    expect(done.counts).toEqual({ passed: passing, failed: CASES.length - passing, warned: 0, errored: 0, total: CASES.length });
    expect(done.report.byTag).toEqual([
      { tag: 'fails', passed: 0, failed: CASES.length - passing, warned: 0, errored: 0 },
      { tag: 'passes', passed: passing, failed: 0, warned: 0, errored: 0 },
    ]);
    const xml = (await junit(t, headers, done.jobId)).body;
    for (const [id, , assertion] of CASES) {
      const testcase = new RegExp(`<testcase classname="assertions" name="${id}" time="[\\d.]+"(/>|>\\s*<failure type="${String(assertion.type)}")`);
      const match = testcase.exec(xml);
      expect(match, id).not.toBeNull();
      expect(match![1] === '/>', id).toBe(id.endsWith('-passes'));
    }
    expect(xml).toContain('equals: expected the output to equal &quot;exactly this&quot;');
    expect(xml).toContain('json-schema: the output does not match the schema: /age must be integer');
    expect(xml).toContain('tool-called: expected tool &quot;clock&quot; to be called (called: none)');
    expect(xml).toContain('max-latency-ms: latency 5000 ms exceeds 1000 ms');
    expect(xml).toContain('max-cost-usd: cost $2 exceeds $1.99');
    expect(xml).toContain('regex: expected the output to match /#\\d{5}\\b/');
  });
});

describe('llm-rubric', () => {
  let fake: FakeOpenAIServer;
  let graded: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAIServer((body: { messages: Array<{ role: string; content: string }> }) => {
      const messages = body.messages;
      const system = messages[0]?.content ?? '';
      const user = messages.at(-1)?.content ?? '';
      if (!system.includes('You grade the output')) {
        return openAIText(user.includes('France') ? 'Paris is the capital of France.' : 'Rome is the capital of Italy.');
      }
      if (user.includes('unreadable')) return openAIText('It seems fine to me.');
      return user.includes('Paris is the capital')
        ? openAIText('{"pass": true, ', '"reason": "The answer names Paris."}')
        : openAIText('```json\n{"pass": false, "reason": "The answer names Rome, not Paris."}\n```');
    });
    await writeDatasets(join(harness.root, 'graded'), {
      'rubric.yaml': [
        'cases:',
        '  - { id: rubric-passes, input: What is the capital of France?, assert: [{ type: llm-rubric, value: The answer mentions Paris }] }',
        '  - { id: rubric-fails, input: What is the capital of Italy?, assert: [{ type: llm-rubric, value: The answer mentions Paris }] }',
        '  - { id: rubric-unreadable, input: What is the capital of France?, assert: [{ type: llm-rubric, value: unreadable rubric }] }',
      ].join('\n'),
    });
    graded = await buildEvalApp(
      harness,
      { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake-grader', Pricing: { InputPerMillionTokens: 1, OutputPerMillionTokens: 2 } } },
      {},
      [join(harness.root, 'graded')],
    );
  });
  afterAll(async () => {
    await graded.close();
    await fake.close();
  });

  it('is graded by the chat model: pass or fail with the grader’s reason; an answer that is not a verdict is errored', async () => {
    const headers = await tokenFor(harness, 'grader');
    const done = await runToEnd(graded, headers, { datasets: ['rubric'] });
    expect(done.counts).toEqual({ passed: 1, failed: 1, warned: 0, errored: 1, total: 3 });
    // Three subject conversations and three gradings, 10 input and 5 output tokens each.
    expect(done.report.tokens).toEqual({ input: 60, output: 30 });
    expect(done.costUsd).toBe(0.00012);
    const gradings = fake.requests.filter((r) => r.body.messages[0].content.includes('You grade the output'));
    expect(gradings).toHaveLength(3);
    expect(gradings.map((r): string => String(r.body.messages.at(-1).content)).join('\n')).toContain('Rubric:\nThe answer mentions Paris\n\nOutput to grade:\n<<<\nRome is the capital of Italy.\n>>>');
    const xml = (await junit(graded, headers, done.jobId)).body;
    expect(xml).toMatch(/name="rubric-passes"[^>]*>\s*<system-out>note llm-rubric: The answer names Paris\.<\/system-out>/);
    expect(xml).toMatch(/name="rubric-fails"[^>]*>\s*<failure type="llm-rubric" message="llm-rubric: The answer names Rome, not Paris\."/);
    expect(xml).toMatch(/name="rubric-unreadable"[^>]*>\s*<error type="errored" message="the llm-rubric grader’s reply was not a pass\/fail verdict"/);
  });
});
