// The runner over HTTP: a case that cannot run is errored and never fails the run; subjects (host
// agents, inline prompts) with their tools narrowed by the starting caller's envelope; repeats with
// flaky cases and pass^k; one pool of `parallelism` slots shared by every case × repeat.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { buildEvalApp, junit, runToEnd, startEvalHarness, startRun, tokenFor, untilFinished, writeDatasets, SteerableModel, type EvalHarness } from './evals-harness.js';

let harness: EvalHarness;
let t: TestApp;
let datasets: string;
const model = new SteerableModel();

beforeAll(async () => {
  harness = await startEvalHarness();
  datasets = join(harness.root, 'datasets');
  const agents = join(harness.root, 'agents');
  await mkdir(join(agents, 'geo'), { recursive: true });
  await writeFile(
    join(agents, 'geo', 'AGENT.md'),
    '---\nid: geo-expert\ndescription: Geography\nallowed-tools: [clock]\n---\nYou are GeoBot, a terse geography assistant.\n',
  );
  await mkdir(join(agents, 'broken'), { recursive: true });
  await writeFile(join(agents, 'broken', 'AGENT.md'), 'no front matter here\n');
  await writeDatasets(datasets, {
    'trouble.yaml': [
      'subject: { system: You use tools., tools: [json] }',
      'cases:',
      '  - { id: fine, input: "reply:ok", assert: [{ type: equals, value: ok }] }',
      '  - { id: model-failure, input: fail }',
      '  - { id: tool-failure, input: "call json query {\\"data\\": {}, \\"expression\\": \\"[[[\\"}" }',
      '  - { id: too-slow, input: hang, timeoutSeconds: 0.05 }',
      '  - { id: programming-error, input: throw }',
    ].join('\n'),
    'agent.yaml': [
      'subject: { agent: geo-expert }',
      'cases:',
      '  - { id: prompt, input: "reply:hello", assert: [{ type: equals, value: hello }] }',
      '  - { id: granted-tool, input: "call clock now {\\"timeZone\\":\\"UTC\\"}", assert: [{ type: contains, value: "- clock: {" }] }',
      '  - { id: tool-outside-agent, input: "call calculator evaluate {\\"expression\\":\\"1+1\\"}", assert: [{ type: contains, value: denied by policy }] }',
    ].join('\n'),
    'ghost.yaml': 'subject: { agent: nobody-home }\ncases:\n  - { input: "reply:hi" }\n',
    'coins.yaml': [
      'cases:',
      '  - { id: always, input: "reply:heads", assert: [{ type: equals, value: heads }] }',
      '  - { id: sometimes, input: "flip:coin", assert: [{ type: equals, value: heads }] }',
      '  - { id: never, input: "reply:tails", assert: [{ type: equals, value: heads }] }',
    ].join('\n'),
    'pool.jsonl': ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, input: 'gate:pool reply:done' })).join('\n'),
    'pool-default.jsonl': ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, input: 'gate:pool-default reply:done' })).join('\n'),
  });
  t = await buildEvalApp(harness, { Agents: { DiscoveryPaths: [agents] } }, { chatModel: model }, [datasets]);
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('cases that cannot run', () => {
  it('are errored with a caller-safe reason — model failure, tool failure, timeout, a throw — and the run still Succeeds', async () => {
    const headers = await tokenFor(harness, 'unlucky');
    const done = await runToEnd(t, headers, { datasets: ['trouble'], failRateThreshold: 1 });
    expect(done.status).toBe('Succeeded');
    expect(done.counts).toEqual({ passed: 1, failed: 0, warned: 0, errored: 4, total: 5 });
    expect(done.verdict).toBe('Pass');
    const xml = (await junit(t, headers, done.jobId)).body;
    expect(xml).toMatch(/name="model-failure"[^>]*>\s*<error type="errored" message="the conversation failed: The chat model is unavailable\."/);
    expect(xml).toMatch(/name="tool-failure"[^>]*>\s*<error type="errored" message="a tool call failed \(json\)"/);
    expect(xml).toMatch(/name="too-slow"[^>]*>\s*<error type="errored" message="the case did not finish within its timeout of 0\.05 s"/);
    expect(xml).toMatch(/name="programming-error"[^>]*>\s*<error type="errored" message="the case could not run \(an unexpected error; the host log has the details\)"/);
    expect(xml).not.toContain('programming error inside');
  });

  it('are errored when no chat model is configured', async () => {
    const modelless = await buildEvalApp(harness, {}, { chatModel: null }, [datasets]);
    try {
      const headers = await tokenFor(harness, 'unlucky');
      const done = await runToEnd(modelless, headers, { datasets: ['coins'] });
      expect(done).toMatchObject({ status: 'Succeeded', verdict: 'Fail', counts: { errored: 3, total: 3 } });
      expect((await junit(modelless, headers, done.jobId)).body).toContain('no chat model is configured (AppConfig:AI:ChatModel:Provider)');
    } finally {
      await modelless.close();
    }
  });
});

describe('subjects', () => {
  it('a host agent answers with its AGENT.md prompt and only the tools its allowed-tools request', async () => {
    const headers = await tokenFor(harness, 'geographer');
    model.systemPrompts.length = 0;
    const done = await runToEnd(t, headers, { datasets: ['agent'] });
    expect(done.counts).toEqual({ passed: 3, failed: 0, warned: 0, errored: 0, total: 3 });
    expect(new Set(model.systemPrompts)).toEqual(new Set(['You are GeoBot, a terse geography assistant.']));
  });

  it('a host agent that is not in Agents:DiscoveryPaths errors its dataset’s cases', async () => {
    const headers = await tokenFor(harness, 'geographer');
    const done = await runToEnd(t, headers, { datasets: ['ghost'] });
    expect(done.counts).toMatchObject({ errored: 1, total: 1 });
    expect((await junit(t, headers, done.jobId)).body).toContain("host agent &apos;nobody-home&apos; was not found in Agents:DiscoveryPaths");
  });
});

describe('repeats', () => {
  it('count every repeat and report flaky cases and pass^k across them', async () => {
    const headers = await tokenFor(harness, 'gambler');
    const done = await runToEnd(t, headers, { datasets: ['coins'], repeats: 4, failRateThreshold: 0.5 });
    expect(done.counts).toEqual({ passed: 6, failed: 6, warned: 0, errored: 0, total: 12 });
    expect(done.verdict).toBe('Pass');
    expect(done.report).toMatchObject({ repeats: 4, flakyCases: 1, passAtK: 1 / 3, failRate: 0.5 });
    const xml = (await junit(t, headers, done.jobId)).body;
    for (let repeat = 1; repeat <= 4; repeat += 1) expect(xml).toContain(`name="sometimes [repeat ${repeat}/4]"`);
  });
});

describe('parallelism', () => {
  it('bounds concurrent case executions, repeats included, with one pool per run', async () => {
    const headers = await tokenFor(harness, 'pooler');
    model.maxActive = 0;
    const jobId = (await startRun(t, headers, { datasets: ['pool'], repeats: 3, parallelism: 5 })).json().jobId;
    await model.untilActive(5);
    expect(model.active).toBe(5);
    model.gate('pool').open();
    const done = await untilFinished(t, headers, jobId);
    expect(done.counts).toMatchObject({ passed: 12, total: 12 });
    expect(model.maxActive).toBe(5);
  });

  it('defaults to 4 concurrent case executions', async () => {
    const headers = await tokenFor(harness, 'pooler');
    model.maxActive = 0;
    const jobId = (await startRun(t, headers, { datasets: ['pool-default'], repeats: 3 })).json().jobId;
    await model.untilActive(4);
    model.gate('pool-default').open();
    expect((await untilFinished(t, headers, jobId)).counts.total).toBe(12);
    expect(model.maxActive).toBe(4);
  });
});
