// GET …/runs/{jobId}/stream against a real listening server: the official AG-UI client verifies streams
// with text and tool calls (Scripted model and an OpenAI-compatible fake over HTTP), the wire format and
// headers, 409/404/429, redaction of a secret split across model deltas, withholding above
// StreamFrameCeilingBytes, cancellation when the connection closes, and RUN_ERROR on shutdown.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSchemas } from '@ag-ui/core/schemas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/models/index.js';
import { TEST_STORAGE } from '../helpers/test-storage.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import {
  bundleSettings,
  gatedModel,
  listen,
  openRawStream,
  poll,
  readVerifiedStream,
  registerHandle,
  settled,
  startJob,
  startRun,
  type Frame,
} from './bundles-harness.js';

const SECRET = 'ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
let base: string;
const apps: TestApp[] = [];
const fakes: FakeOpenAIServer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-streams-'));
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const fake of fakes.splice(0)) await fake.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function serve(ai: Record<string, unknown> = {}, chatModel?: ChatModel): Promise<{ t: TestApp; url: string }> {
  const t = await buildTestApp({
    settings: bundleSettings(join(base, `root-${++roots}`), ai),
    deps: chatModel === undefined ? {} : { chatModel },
  });
  apps.push(t);
  return { t, url: await listen(t.app) };
}

async function fakeOpenAI(): Promise<{ fake: FakeOpenAIServer; ai: Record<string, unknown> }> {
  const fake = await startFakeOpenAIServer();
  fakes.push(fake);
  return { fake, ai: { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'x', ApiKey: 'sk-test-key' } } };
}

async function reserve(t: TestApp, userMessages: string[]): Promise<{ handle: string; jobId: string; streamUrl: string }> {
  const handle = await registerHandle(t.app);
  const res = await startRun(t.app, handle, { userMessages, stream: true });
  expect(res.statusCode).toBe(202);
  return { handle, ...res.json<{ jobId: string; streamUrl: string }>() };
}

describe('a streamed run, verified by the official AG-UI client', () => {
  it('streams text and tool calls from the Scripted model in a valid order, RUN_STARTED first and one terminal frame', async () => {
    const { t, url } = await serve();
    const { handle, jobId, streamUrl } = await reserve(t, ['hello there', 'call calculator evaluate {"expression":"2+3"}', 'call clock now']);
    const events = await readVerifiedStream(`${url}${streamUrl}`);
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: handle, runId: jobId });
    expect(events.at(-1)).toEqual({ type: 'RUN_FINISHED', threadId: handle, runId: jobId });
    expect(events.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR')).toHaveLength(1);
    const types = events.map((e) => e.type);
    expect(types).toContain('TEXT_MESSAGE_CONTENT');
    // START, ARGS, END back to back, then RESULT after the tool ran.
    const start = types.indexOf('TOOL_CALL_START');
    expect(types.slice(start, start + 4)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']);
    const args = events.find((e) => e.type === 'TOOL_CALL_ARGS') as { delta: string };
    expect(JSON.parse(args.delta)).toEqual({ operation: 'evaluate', parameters: { expression: '2+3' } });
    const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT') as unknown as Array<{ messageId: string; content: string; role: string }>;
    expect(results[0]).toMatchObject({ role: 'tool', content: expect.stringContaining('"result":5') });
    const messageIds = events.flatMap((e) => ('messageId' in e ? [(e as { messageId: string }).messageId] : []));
    expect(new Set(results.map((r) => r.messageId)).size).toBe(results.length);
    expect(results.every((r) => messageIds.filter((id) => id === r.messageId).length === 1)).toBe(true);
    // No empty deltas.
    expect(events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').every((e) => (e as { delta: string }).delta !== '')).toBe(true);
    expect(await settled(t.app, handle, jobId)).toMatchObject({ status: 'Succeeded', result: { totalToolInvocations: 2, turnCount: 3 } });
  });

  it('tells the model why its call was refused (it can fix that) while the stream frame stays generic', async () => {
    const { fake, ai } = await fakeOpenAI();
    fake.enqueue(
      { type: 'stream', steps: [{ toolCall: { name: 'calculator', argumentChunks: ['{"operation":"evaluate","parameters":{"expr":"6*7"}}'] } }] },
      { type: 'stream', steps: [{ toolCall: { name: 'calculator', argumentChunks: ['{"operation":"evaluate","parameters":{"expression":"6*7"}}'] } }] },
      openAIText('42.'),
    );
    const { t, url } = await serve(ai);
    const { handle, jobId, streamUrl } = await reserve(t, ['What is 6*7?']);
    const events = await readVerifiedStream(`${url}${streamUrl}`);
    const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT') as Array<{ content: string }>;
    expect(results[0]!.content).toBe('The tool call failed.');
    const told = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(told).toMatchObject({ role: 'tool' });
    expect(told.content).toBe(
      "The tool call failed: the parameters of calculator.evaluate are invalid: parameters must have required property 'expression'; parameters must NOT have additional properties 'expr'. Correct the call and try again.",
    );
    expect(results[1]!.content).toContain('"result":42');
    expect(await settled(t.app, handle, jobId)).toMatchObject({ status: 'Succeeded', result: { finalResponse: '42.', totalToolInvocations: 2 } });
  });

  it('streams text and a tool call whose arguments arrived in fragments from an OpenAI-compatible server over HTTP', async () => {
    const { fake, ai } = await fakeOpenAI();
    fake.enqueue(
      { type: 'stream', steps: [{ text: 'Let me ' }, { text: 'compute.' }, { toolCall: { name: 'calculator', argumentChunks: ['{"operation":"eval', 'uate","parameters":', '{"expression":"6*7"}}'] } }] },
      openAIText('The answer ', 'is 42.'),
    );
    const { t, url } = await serve(ai);
    const { handle, jobId, streamUrl } = await reserve(t, ['What is 6*7?']);
    const read = await readVerifiedStream(`${url}${streamUrl}`);
    // Text deltas that waited for the same journal commit arrive as one: compared merged, the text intact.
    const events = mergeContent(read);
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect((events[2] as { delta: string }).delta).toBe('Let me compute.');
    expect((events[9] as { delta: string }).delta).toBe('The answer is 42.');
    const startFrame = events[4] as { toolCallName: string; parentMessageId?: string };
    expect(startFrame.toolCallName).toBe('calculator');
    expect(startFrame.parentMessageId).toBe((events[1] as { messageId: string }).messageId);
    expect((events[5] as { delta: string }).delta).toBe('{"operation":"evaluate","parameters":{"expression":"6*7"}}');
    expect((events[7] as { content: string }).content).toContain('"result":42');
    // The model was offered the effective tools and was sent the tool result on its second call.
    expect(fake.requests[0]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name).sort()).toEqual(['calculator', 'clock', 'json', 'text']);
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('"result\\":42');
    expect(await settled(t.app, handle, jobId)).toMatchObject({
      status: 'Succeeded',
      result: { finalResponse: 'The answer is 42.', totalToolInvocations: 1 },
      usage: { inputTokens: 20, outputTokens: 10 },
    });
  });
});

describe('the wire', () => {
  it('answers 200 with the SSE headers and only `data: <json>` frames each followed by a blank line, all AG-UI events', async () => {
    const { t, url } = await serve();
    const { streamUrl } = await reserve(t, ['call clock now']);
    const stream = await openRawStream(`${url}${streamUrl}`);
    await stream.ended;
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    // A hijacked reply still echoes the request id (hijackReply): here one the service generated.
    expect(stream.response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stream.text()).toMatch(/^(data: [^\n]+\n\n)+$/);
    for (const frame of stream.frames()) expect(EventSchemas.safeParse(frame).success, JSON.stringify(frame)).toBe(true);
  });
});

describe('409 Run not streamable', () => {
  it('for a background run, an already-streaming run and a finished run', async () => {
    const model = gatedModel();
    const { t, url } = await serve({}, model);
    const handle = await registerHandle(t.app);
    const expectNotStreamable = async (jobId: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs/${jobId}/stream` });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ title: 'Run not streamable', status: 409 });
    };
    const background = await startJob(t.app, handle, { userMessages: ['bg'] });
    await expectNotStreamable(background);

    const { jobId, streamUrl } = (await startRun(t.app, handle, { userMessages: ['live'], stream: true })).json();
    const first = await openRawStream(`${url}${streamUrl}`);
    await first.waitForFrame((f) => f.type === 'RUN_STARTED');
    await expectNotStreamable(jobId);

    await model.arrived(2);
    model.release(0);
    model.release(1);
    await first.ended;
    await settled(t.app, handle, background);
    await expectNotStreamable(jobId);
  });
});

describe('HEAD on the stream URL', () => {
  it('is 405 and neither drives nor cancels the reserved run, which GET can still open', async () => {
    const { t, url } = await serve();
    const { handle, jobId, streamUrl } = await reserve(t, ['hello']);
    const head = await t.app.inject({ method: 'HEAD', url: streamUrl });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({ status: 'Queued', startedAt: null });
    const frames = await readVerifiedStream(`${url}${streamUrl}`);
    expect(frames.at(-1)?.type).toBe('RUN_FINISHED');
  });
});

describe('429 over MaxConcurrentStreamsPerCaller', () => {
  it('refuses a second open stream at once (never queued) and accepts it once the first has ended', async () => {
    const model = gatedModel();
    const { t, url } = await serve({ BundleExecution: { MaxConcurrentStreamsPerCaller: 1 } }, model);
    const handle = await registerHandle(t.app);
    const one = (await startRun(t.app, handle, { userMessages: ['one'], stream: true })).json();
    const two = (await startRun(t.app, handle, { userMessages: ['two'], stream: true })).json();
    const open = await openRawStream(`${url}${one.streamUrl}`);
    await open.waitForFrame((f) => f.type === 'RUN_STARTED');
    const refused = await t.app.inject({ method: 'GET', url: two.streamUrl });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    // Not claimed by the refusal: still reserved and Queued.
    expect((await poll(t.app, handle, two.jobId)).json().status).toBe('Queued');
    await model.arrived(1);
    model.release(0);
    await open.ended;
    const later = openRawStream(`${url}${two.streamUrl}`);
    await model.arrived(2);
    model.release(1);
    const stream = await later;
    await stream.ended;
    expect(stream.response.status).toBe(200);
    expect(stream.frames().at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
  });
});

describe('frame contents', () => {
  it('never shows a secret the model split across deltas, in frames or in the poll body', async () => {
    const { fake, ai } = await fakeOpenAI();
    fake.enqueue(openAIText('Your token is g', 'hp_a1B2c3D4e5F6', 'g7H8i9J0kLmNoPqRsTuV', 'wXyZ and', ' nothing else.'));
    const { t, url } = await serve(ai);
    const { handle, jobId, streamUrl } = await reserve(t, ['what is my token?']);
    const events = await readVerifiedStream(`${url}${streamUrl}`);
    const text = events
      .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(text).toBe('Your token is [REDACTED] and nothing else.');
    const everything = JSON.stringify(events);
    for (const fragment of ['a1B2c3D4', 'g7H8i9J0', 'TuVwXyZ', SECRET]) expect(everything).not.toContain(fragment);
    const run = await settled(t.app, handle, jobId);
    expect(run).toMatchObject({ result: { finalResponse: 'Your token is [REDACTED] and nothing else.' } });
  });

  it('withholds tool-call arguments and results above StreamFrameCeilingBytes, and only those', async () => {
    const { t, url } = await serve({ BundleExecution: { StreamFrameCeilingBytes: 200 } });
    const big = 'x'.repeat(300);
    const { streamUrl } = await reserve(t, [`call json query {"data":{"a":"${big}"},"expression":"a"}`, 'call calculator evaluate {"expression":"1+1"}']);
    const events = await readVerifiedStream(`${url}${streamUrl}`);
    const args = events.filter((e) => e.type === 'TOOL_CALL_ARGS') as unknown as Array<Record<string, unknown>>;
    const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT') as unknown as Array<Record<string, unknown>>;
    expect(args[0]).toMatchObject({ delta: '{}', withheld: true });
    expect(results[0]).toMatchObject({ content: '', withheld: true, role: 'tool' });
    expect(args[1]).not.toHaveProperty('withheld');
    expect(results[1]).not.toHaveProperty('withheld');
    expect(results[1]!.content).toContain('"result":2');
    // Text is redacted, never withheld: the summary of the big result still streams.
    expect(JSON.stringify(events)).toContain(big);
  });

  it('answers a denied call with `Tool call denied by policy.` and lets the run go on', async () => {
    const { t, url } = await serve();
    const { streamUrl } = await reserve(t, ['call memory set {"key":"k","value":"v"}', 'after the denial']);
    const events = await readVerifiedStream(`${url}${streamUrl}`);
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'Tool call denied by policy.' });
    expect(events.at(-1)!.type).toBe('RUN_FINISHED');
  });
});

describe('ending a stream early', () => {
  it('Running → Failed `The run was cancelled.` when the client closes the connection; the model request is aborted', async () => {
    const { fake, ai } = await fakeOpenAI();
    fake.enqueue({ type: 'stream', steps: [{ text: 'Thinking' }, { hang: true }] });
    const { t, url } = await serve(ai);
    const { handle, jobId, streamUrl } = await reserve(t, ['take your time']);
    const stream = await openRawStream(`${url}${streamUrl}`);
    await stream.waitForFrame((f) => f.type === 'TEXT_MESSAGE_CONTENT');
    stream.close();
    await fake.waitForAbort(1);
    expect(await settled(t.app, handle, jobId)).toMatchObject({
      status: 'Failed',
      error: 'The run was cancelled.',
      startedAt: expect.any(String),
      completedAt: expect.any(String),
      result: null,
    });
  });

  it('ends every open stream with RUN_ERROR when the host shuts down: the run cancelled on Memory, left for another instance (the host stopped) on a shared storage', async () => {
    const model = gatedModel();
    const t = await buildTestApp({ settings: bundleSettings(join(base, `root-${++roots}`)), deps: { chatModel: model } });
    const url = await listen(t.app);
    const { streamUrl } = await reserve(t, ['hold on']);
    const stream = await openRawStream(`${url}${streamUrl}`);
    await model.arrived(1);
    await t.close();
    await stream.ended;
    const frames = stream.frames();
    expect(frames[0]).toMatchObject({ type: 'RUN_STARTED' });
    const message = TEST_STORAGE === 'Memory' ? 'The run was cancelled.' : 'The host executing this run stopped.';
    expect(frames.at(-1)).toEqual({ type: 'RUN_ERROR', message });
    expect(model.aborted).toBe(1);
  });
});

/** Consecutive TEXT_MESSAGE_CONTENT frames of one message as one (their deltas joined). */
function mergeContent(events: readonly Frame[]): Frame[] {
  const out: Frame[] = [];
  for (const event of events) {
    const previous = out.at(-1);
    if (previous?.type === 'TEXT_MESSAGE_CONTENT' && event.type === 'TEXT_MESSAGE_CONTENT' && previous.messageId === event.messageId) {
      out[out.length - 1] = { ...previous, delta: `${previous.delta ?? ''}${event.delta ?? ''}` };
    } else out.push(event);
  }
  return out;
}
