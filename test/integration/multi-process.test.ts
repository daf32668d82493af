// DESIGN §11 with real processes on one real PostgreSQL: `portcullis serve` instances A and B share a
// schema. Anything created through one is polled, streamed, cancelled, approved, continued and deleted
// through the other; a caller's rate limit counts across both; a restart keeps definitions, parked
// approvals, handles, finished runs, conversations, eval reports and memory entries; and a SIGKILLed
// instance's runs are taken over within RunLeaseTtl + 5 s (a workflow resumes without re-running its
// succeeded steps, a bundle run ends Failed as its host stopped, an eval run keeps its judged cases).
// The chat model is a fake OpenAI-compatible server in this process that holds any prompt containing
// HOLD:<key> until the test releases that key.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/cli-process.js';
import { serveEnv } from '../helpers/serve-cluster.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequestBody } from '../helpers/fake-openai-server.js';
import { freshPostgres, type FreshPostgres } from '../helpers/postgres.js';
import { bundleZip } from './bundles-harness.js';

const LEASE_SECONDS = 3;
const TAKEOVER_BOUND_MS = (LEASE_SECONDS + 5) * 1_000;

let fake: FakeOpenAIServer;
let dir: string;
const gates = new Map<string, () => void>();
const waiting = new Map<string, Promise<void>>();

/** The last user message of a model request. */
const lastUser = (body: FakeRequestBody): string =>
  String((body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)?.content ?? '');

function gate(key: string): Promise<void> {
  let promise = waiting.get(key);
  if (promise === undefined) {
    promise = new Promise<void>((resolve) => gates.set(key, resolve));
    waiting.set(key, promise);
  }
  return promise;
}

function release(key: string): void {
  void gate(key);
  gates.get(key)?.();
}

/** Model requests whose last user message contains `text`. */
const asked = (text: string): number => fake.requests.filter((request) => lastUser(request.body).includes(text)).length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-multi-'));
  await mkdir(join(dir, 'datasets'));
  await writeFile(
    join(dir, 'datasets', 'slow.jsonl'),
    ['c1', 'c2', 'HOLD:eval-c3'].map((input, i) => JSON.stringify({ id: `case-${i + 1}`, input, assert: [{ type: 'contains', value: 'echo' }] })).join('\n'),
  );
  fake = await startFakeOpenAIServer((body) => {
    const text = lastUser(body);
    const key = /HOLD:([\w-]+)/.exec(text)?.[1];
    return key === undefined ? openAIText(`echo ${text}`) : { type: 'stream', steps: [{ until: gate(key) }, { text: `echo ${text}` }] };
  });
});

afterAll(async () => {
  for (const resolve of gates.values()) resolve();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

function env(database: FreshPostgres, name: string, extra: Record<string, string> = {}): Record<string, string> {
  const ai = 'AppConfig__AI__';
  return serveEnv({
    database,
    modelUrl: fake.url,
    dir,
    tempRoot: join(dir, name),
    leaseSeconds: LEASE_SECONDS,
    apiKey: 'sk-test',
    extra: { [`${ai}BundleExecution__Envelopes__Default__AllowedTools__1`]: 'memory', [`${ai}DirectToolInvocation__Enabled`]: 'true', ...extra },
  });
}

function serve(database: FreshPostgres, name: string, extra: Record<string, string> = {}): Promise<ServeProcess> {
  return startServe({ cwd: dir, env: env(database, name, extra) });
}

interface Answer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

async function api(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const chain = (name: string, ...steps: Array<[string, string]>) => ({
  name,
  steps: steps.map(([step, prompt]) =>
    prompt === 'GATE'
      ? { name: step, type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Ship it?', timeout: '01:00:00' } }
      : { name: step, type: 'LlmCall', configuration: { type: 'LlmCall', prompt } },
  ),
  edges: steps.slice(1).map(([step], i) => ({ from: steps[i]![0], to: step, type: 'ControlFlow' })),
});

async function submit(base: string, definition: unknown): Promise<string> {
  const res = await api(base, 'POST', '/api/workflows', definition);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function startWorkflow(base: string, workflowId: string): Promise<string> {
  const res = await api(base, 'POST', `/api/workflows/${workflowId}/runs`);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.statusUrl as string;
}

async function register(base: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([bundleZip()]), 'helper.zip');
  const res = await fetch(`${base}/api/bundles`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { handle: string }).handle;
}

/** Reads a workflow progress stream to its end; frames with their ids. */
async function readStream(url: string, headers: Record<string, string> = {}): Promise<Array<{ id: string | undefined; data: { type: string; [key: string]: unknown } }>> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  const frames: Array<{ id: string | undefined; data: { type: string } }> = [];
  const parser = createParser({ onEvent: (event) => frames.push({ id: event.id, data: JSON.parse(event.data) as { type: string } }) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk, { stream: true }));
  return frames;
}

const isStatus = (status: string) => (answer: Answer) => answer.body?.status === status;

describe('two instances on one database', () => {
  const database = freshPostgres('multi');
  let a: ServeProcess;
  let b: ServeProcess;
  let killed = false;

  beforeAll(async () => {
    a = await serve(database, 'a');
    b = await serve(database, 'b');
  }, 60_000);
  afterAll(async () => {
    if (!killed) await a.stop();
    await b.stop();
    await database.drop();
  });

  it('answers through B for a workflow created on A: live stream, approval, resume under the same job id', async () => {
    const workflowId = await submit(a.url, chain('across', ['draft', 'write HOLD:draft'], ['gate', 'GATE'], ['after', 'done']));
    const statusUrl = await startWorkflow(a.url, workflowId);
    await eventually(async () => asked('HOLD:draft'), (n) => n === 1);
    const streaming = readStream(`${b.url}${statusUrl}/stream`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release('draft');
    const frames = await streaming;
    expect(frames.map((f) => f.data.type)).toEqual(['SNAPSHOT', 'STEP', 'STEP', 'STEP', 'PARKED']);
    expect(frames.slice(1).map((f) => Number(f.id))).toEqual(frames.slice(1).map((f) => f.data.sequence));
    const blocked = await api(b.url, 'GET', statusUrl);
    expect(blocked.body).toMatchObject({ status: 'Blocked', pendingApprovals: [{ stepName: 'gate', message: 'Ship it?' }] });
    const approvalId = blocked.body.pendingApprovals[0].approvalId as string;
    expect((await api(b.url, 'GET', '/api/approvals')).body.approvals.map((x: { approvalId: string }) => x.approvalId)).toContain(approvalId);
    expect((await api(b.url, 'POST', `${statusUrl}/approvals/${approvalId}`, { decision: 'Approve', comment: 'from B' })).status).toBe(200);
    const done = await eventually(() => api(a.url, 'GET', statusUrl), isStatus('Succeeded'));
    expect(done.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    // Last-Event-ID on the other instance: every frame after that id.
    const resumed = await readStream(`${a.url}${statusUrl}/stream`, { 'last-event-id': frames.at(-1)!.id! });
    expect(resumed.map((f) => f.data.type)).toEqual(['STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
  });

  it('cancels through B a run executing on A: the model request is aborted and the run ends Cancelled', async () => {
    const workflowId = await submit(b.url, chain('cancel-across', ['think', 'wait HOLD:never-released']));
    const statusUrl = await startWorkflow(a.url, workflowId);
    await eventually(async () => asked('HOLD:never-released'), (n) => n === 1);
    const aborts = fake.abortedRequests;
    expect((await api(b.url, 'DELETE', statusUrl)).body).toEqual({ stopped: false, withdrawnApprovals: 0 });
    const done = await eventually(() => api(b.url, 'GET', statusUrl), isStatus('Cancelled'));
    expect(done.body.error).toBe('The run was cancelled.');
    await fake.waitForAbort(aborts + 1);
  });

  it('runs on B a bundle registered on A, continues its conversation on A, and deletes it through B for both', async () => {
    const handle = await register(a.url);
    const first = await api(b.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['remember blue'], conversationId: 'mp-conv' });
    expect(first.status).toBe(202);
    await eventually(() => api(a.url, 'GET', first.body.statusUrl as string), isStatus('Succeeded'));
    const second = await api(a.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['what colour?'], conversationId: 'mp-conv' });
    const done = await eventually(() => api(b.url, 'GET', second.body.statusUrl as string), isStatus('Succeeded'));
    expect(done.body.result.finalResponse).toBe('echo what colour?');
    const history = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    expect(history.map((m) => m.content)).toEqual(expect.arrayContaining(['remember blue', 'echo remember blue', 'what colour?']));

    const reserved = await api(a.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['stream me'], stream: true });
    const stream = await fetch(`${b.url}${reserved.body.streamUrl as string}`);
    expect(stream.status).toBe(200);
    const text = await stream.text();
    expect(text).toContain('"RUN_STARTED"');
    expect(text).toContain('"RUN_FINISHED"');
    expect((await api(a.url, 'GET', reserved.body.statusUrl as string)).body.status).toBe('Succeeded');

    expect((await api(b.url, 'DELETE', `/api/bundles/${handle}`)).status).toBe(204);
    expect((await api(a.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['x'] })).status).toBe(404);
  });

  it('takes over the runs of an instance killed with SIGKILL within RunLeaseTtl + 5 s', async () => {
    // A workflow mid-run on A: its first step has succeeded, the second is with the model.
    const workflowId = await submit(a.url, chain('takeover', ['first', 'step one HOLD:first'], ['second', 'step two HOLD:second'], ['third', 'step three']));
    const workflowUrl = await startWorkflow(a.url, workflowId);
    await eventually(async () => asked('HOLD:first'), (n) => n === 1);
    release('first');
    await eventually(async () => asked('HOLD:second'), (n) => n === 1);
    // A bundle run executing on A.
    const handle = await register(a.url);
    const bundleRun = await api(a.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['hold on HOLD:bundle'] });
    // An eval run on A: two cases judged, the third with the model (parallelism 1: in order).
    const evalRun = await api(a.url, 'POST', '/api/evals/runs', { datasets: ['slow'], parallelism: 1 });
    expect(evalRun.status, JSON.stringify(evalRun.body)).toBe(202);
    await eventually(async () => asked('HOLD:bundle') + asked('HOLD:eval-c3'), (n) => n === 2);
    // A workflow run parked on A, waiting for a person (decision 3701: it executes nowhere).
    const gatedId = await submit(a.url, chain('parked-on-a', ['draft', 'write [parked-draft]'], ['gate', 'GATE'], ['after', 'ship [parked-after]']));
    const gatedUrl = await startWorkflow(a.url, gatedId);
    const parked = await eventually(() => api(a.url, 'GET', gatedUrl), isStatus('Blocked'));

    a.child.kill('SIGKILL');
    killed = true;
    const killedAt = Date.now();
    release('second');
    release('bundle');
    release('eval-c3');

    const workflow = await eventually(() => api(b.url, 'GET', workflowUrl), isStatus('Succeeded'), TAKEOVER_BOUND_MS + 5_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(TAKEOVER_BOUND_MS + 2_000);
    expect(workflow.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(asked('HOLD:first')).toBe(1); // a step that Succeeded is never run again
    expect(asked('HOLD:second')).toBe(2); // the step that was running is run again (at-least-once)

    const bundle = await eventually(() => api(b.url, 'GET', bundleRun.body.statusUrl as string), isStatus('Failed'), TAKEOVER_BOUND_MS + 5_000);
    expect(bundle.body.error).toBe('The host executing this run stopped.');
    expect(asked('HOLD:bundle')).toBe(1);

    const evaluation = await eventually(() => api(b.url, 'GET', `/api/evals/runs/${evalRun.body.jobId as string}`), isStatus('Succeeded'), TAKEOVER_BOUND_MS + 5_000);
    expect(evaluation.body.counts).toMatchObject({ total: 3, passed: 3 });
    expect([asked('c1'), asked('c2'), asked('HOLD:eval-c3')]).toEqual([1, 1, 2]);

    // The parked run's instance is gone: a decision through B wakes it there, from its checkpoints.
    const approvalId = parked.body.pendingApprovals[0].approvalId as string;
    expect((await api(b.url, 'POST', `${gatedUrl}/approvals/${approvalId}`, { decision: 'Approve' })).status).toBe(200);
    const shipped = await eventually(() => api(b.url, 'GET', gatedUrl), isStatus('Succeeded'));
    expect(shipped.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect([asked('[parked-draft]'), asked('[parked-after]')]).toEqual([1, 1]);
  }, 60_000);
});

describe('shared rate limits', () => {
  const database = freshPostgres('limits');
  let a: ServeProcess;
  let b: ServeProcess;
  beforeAll(async () => {
    const defaults = { 'AppConfig__AI__RateLimits__workflows-read__PermitsPerMinute': '120' };
    [a, b] = await Promise.all([serve(database, 'la', defaults), serve(database, 'lb', defaults)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await database.drop();
  });

  it('counts a caller’s workflows-read permits across both instances: the 121st read is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) statuses.push((await api(i % 2 === 0 ? a.url : b.url, 'GET', '/api/workflows')).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await fetch(`${b.url}/api/workflows`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('restart', () => {
  const database = freshPostgres('restart');
  afterAll(async () => database.drop());

  it('keeps definitions, a parked approval, handles, finished runs, conversations, eval reports and memory entries; approving resumes the run', async () => {
    const first = await serve(database, 'r1');
    const workflows: string[] = [];
    for (const name of ['one', 'two', 'three']) workflows.push(await submit(first.url, chain(name, ['only', 'hello'])));
    const gated = await submit(first.url, chain('gated', ['gate', 'GATE'], ['after', 'shipped']));
    const parkedUrl = await startWorkflow(first.url, gated);
    const parked = await eventually(() => api(first.url, 'GET', parkedUrl), isStatus('Blocked'));
    const handle = await register(first.url);
    const finished = await api(first.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['my name is Ada'], conversationId: 'restart-conv' });
    await eventually(() => api(first.url, 'GET', finished.body.statusUrl as string), isStatus('Succeeded'));
    const evalRun = await api(first.url, 'POST', '/api/evals/runs', { datasets: ['slow'], tagFilter: ['none'] });
    expect(evalRun.status).toBe(400); // tagFilter selecting nothing is refused: nothing queued
    const invoke = await api(first.url, 'POST', '/api/tools/memory/invoke', { operation: 'set', parameters: { key: 'colour', value: 'blue' } });
    expect(invoke.body).toMatchObject({ succeeded: true });
    release('eval-c3');
    const report = await api(first.url, 'POST', '/api/evals/runs', { datasets: ['slow'] });
    const reported = await eventually(() => api(first.url, 'GET', `/api/evals/runs/${report.body.jobId as string}`), isStatus('Succeeded'));
    expect(await first.stop()).toBe(0);

    const second = await serve(database, 'r2');
    try {
      const listed = await api(second.url, 'GET', '/api/workflows');
      expect(listed.body.workflows).toHaveLength(4);
      expect((await api(second.url, 'GET', finished.body.statusUrl as string)).body).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'echo my name is Ada' } });
      expect((await api(second.url, 'GET', `/api/evals/runs/${report.body.jobId as string}`)).body).toEqual(reported.body);
      expect((await api(second.url, 'POST', '/api/tools/memory/invoke', { operation: 'get', parameters: { key: 'colour' } })).body.output).toContain('"blue"');

      // Taken over by the new instance (its lease lapsed at the SIGTERM): Running again up to its gate, then Blocked.
      const stillParked = await eventually(() => api(second.url, 'GET', parkedUrl), isStatus('Blocked'));
      expect(stillParked.body).toMatchObject({ status: 'Blocked', pendingApprovals: parked.body.pendingApprovals });
      const approvalId = parked.body.pendingApprovals[0].approvalId as string;
      expect((await api(second.url, 'POST', `${parkedUrl}/approvals/${approvalId}`, { decision: 'Approve' })).status).toBe(200);
      const resumed = await eventually(() => api(second.url, 'GET', parkedUrl), isStatus('Succeeded'), TAKEOVER_BOUND_MS + 5_000);
      expect(resumed.body.jobId).toBe(parked.body.jobId);

      const next = await api(second.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['what is my name?'], conversationId: 'restart-conv' });
      expect(next.status, JSON.stringify(next.body)).toBe(202);
      await eventually(() => api(second.url, 'GET', next.body.statusUrl as string), isStatus('Succeeded'));
      const contents = (fake.requests.at(-1)!.body.messages as Array<{ content: string }>).map((m) => m.content);
      expect(contents).toEqual(expect.arrayContaining(['my name is Ada', 'what is my name?']));
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 90_000);
});
