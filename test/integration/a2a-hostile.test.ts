// DESIGN §20 from the hostile side, with plain fetch against a listening service: malformed JSON-RPC,
// batches, unknown methods, oversized and deeply nested bodies and parts, file parts, a missing or other
// A2A-Version — each the protocol's JSON-RPC error (HTTP 200, never a 5xx) and nothing started; a POST
// to another caller's handle, or a read of another caller's task, answered exactly as an unknown one;
// the surface absent while A2A is off and refused (403) while bundle execution is off.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, listen, registerHandle } from './bundles-harness.js';
import { a2aSettings, rawRpc } from './a2a-harness.js';

const send = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'SendMessage',
  params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts, ...extra } },
});

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i += 1) value = { inner: value };
  return value;
}

describe('the A2A endpoint under hostile input', () => {
  let idp: DevIdp;
  let temp: string;
  let t: TestApp;
  let base: string;
  let ana: Record<string, string>;
  let bo: Record<string, string>;
  let handle: string;

  beforeAll(async () => {
    idp = await startTestIdp();
    temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-hostile-'));
    let settings = merge(a2aSettings(bundleSettings(join(temp, 'staging'))), idpSettings(idp, {}));
    settings = merge(settings, { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } });
    t = await buildTestApp({ environment: 'Production', settings });
    base = await listen(t.app);
    ana = bearer(await idp.mintToken({ sub: 'ana' }));
    bo = bearer(await idp.mintToken({ sub: 'bo' }));
    handle = await registerHandle(t.app, ana);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
    await rm(temp, { recursive: true, force: true });
  });

  /** Nothing was started under the handle. */
  async function nothingStarted(): Promise<void> {
    const runs = await t.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs`, headers: ana });
    expect(runs.json()).toEqual({ runs: [], nextCursor: null });
  }

  const cases: Array<[string, () => string | object, number, Record<string, string>?]> = [
    ['a body that is not JSON', () => '{"jsonrpc": "2.0", "method": ', -32700],
    ['a batch', () => [send([{ text: 'hi' }])], -32600],
    ['an empty batch', () => [], -32600],
    ['a JSON value that is no request', () => '"SendMessage"', -32600],
    ['no jsonrpc member', () => ({ id: 1, method: 'SendMessage', params: {} }), -32600],
    ['an id that is an object', () => ({ jsonrpc: '2.0', id: { x: 1 }, method: 'GetTask', params: { id: 'x' } }), -32600],
    ['an unknown method', () => ({ jsonrpc: '2.0', id: 1, method: 'tasks/send', params: {} }), -32601],
    ['params that are a list', () => ({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: [1, 2] }), -32602],
    ['no message', () => ({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }), -32602],
    ['no parts', () => send([]), -32602],
    ['a null part', () => send([null]), -32602],
    ['a text part that is a number', () => send([{ text: 42 }]), -32602],
    ['a part with text and data', () => send([{ text: 'a', data: {} }]), -32602],
    ['an empty text part', () => send([{ text: '  ' }]), -32602],
    ['101 parts', () => send(Array.from({ length: 101 }, () => ({ text: 'x' }))), -32602],
    ['an agent’s message', () => send([{ text: 'hi' }], { role: 'ROLE_AGENT' }), -32602],
    ['a data part over 64 KiB', () => send([{ data: { blob: 'x'.repeat(70_000) } }], { taskId: 'x' }), -32602],
    ['a data part nested 100 levels deep', () => send([{ data: nested(100) }], { taskId: 'x' }), -32600],
    ['a body over 1 MiB', () => send([{ text: 'x'.repeat(1_100_000) }]), -32600],
    ['a file part with bytes', () => send([{ raw: Buffer.from('%PDF-1.4').toString('base64'), mediaType: 'application/pdf' }]), -32005],
    ['a file part with a URL', () => send([{ url: 'https://example.com/a.pdf' }]), -32005],
    ['a contextId that is not an id', () => send([{ text: 'hi' }], { contextId: '../../etc' }), -32602],
    ['no A2A-Version (read as 0.3)', () => send([{ text: 'hi' }]), -32009, { 'a2a-version': '' }],
    ['A2A-Version 0.3', () => send([{ text: 'hi' }]), -32009, { 'a2a-version': '0.3' }],
    ['A2A-Version 2.0', () => send([{ text: 'hi' }]), -32009, { 'a2a-version': '2.0' }],
    ['a body that is not JSON by its media type', () => 'hello', -32600, { 'content-type': 'text/plain' }],
    ['a push notification config', () => ({ jsonrpc: '2.0', id: 1, method: 'CreateTaskPushNotificationConfig', params: { taskId: 'x', url: 'http://127.0.0.1:1/' } }), -32003],
  ];

  it.each(cases)('answers %s with the protocol’s error and starts nothing', async (_name, body, code, headers = {}) => {
    const sent: Record<string, string> = { 'content-type': 'application/json', 'a2a-version': '1.0', ...ana, ...headers };
    if (sent['a2a-version'] === '') delete sent['a2a-version'];
    const res = await fetch(`${base}/a2a/${handle}`, {
      method: 'POST',
      headers: sent,
      body: typeof body() === 'string' ? (body() as string) : JSON.stringify(body()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await res.json()) as { jsonrpc: string; error?: { code: number; message: string } };
    expect(answer.jsonrpc).toBe('2.0');
    expect(answer.error?.code).toBe(code);
    expect(answer.error?.message).not.toMatch(/TypeError|at .*\.js|undefined is not/);
    await nothingStarted();
  });

  it('answers a POST to another caller’s handle exactly as to an unknown handle', async () => {
    const body = send([{ text: 'hi' }]);
    const foreign = await rawRpc(base, handle, body, bo);
    const unknown = await rawRpc(base, 'no-such-handle', body, bo);
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const strip = (text: string) => ({ ...(JSON.parse(text) as Record<string, unknown>), instance: undefined, traceId: undefined });
    expect(strip(foreign.text)).toEqual(strip(unknown.text));
    await nothingStarted();
  });

  it('answers a read of another caller’s task, or of a run of the bundle routes, exactly as an unknown task', async () => {
    const mine = (await rawRpc(base, handle, send([{ text: 'mine' }]), ana)).json();
    const taskId = (mine.result?.task as { id: string }).id;
    const boHandle = await registerHandle(t.app, bo);
    const read = (id: string, who: Record<string, string>, h: string) => rawRpc(base, h, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } }, who);
    const foreign = await read(taskId, bo, boHandle);
    const unknown = await read('no-such-task', bo, boHandle);
    expect(foreign.text).toBe(unknown.text);
    expect(foreign.json().error?.code).toBe(-32001);
    // The same task id under another of the owner's handles is not there either.
    const elsewhere = await registerHandle(t.app, ana);
    expect((await read(taskId, ana, elsewhere)).text).toBe(unknown.text);
    // A run started on the bundle routes is not an A2A task.
    const started = await t.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers: { ...ana, 'content-type': 'application/json' }, payload: { userMessages: ['hi'] } });
    expect((await read(started.json<{ jobId: string }>().jobId, ana, handle)).json().error?.code).toBe(-32001);
  });

  it('needs a bearer token: 401 as on every authenticated route', async () => {
    const res = await fetch(`${base}/a2a/${handle}`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: JSON.stringify(send([{ text: 'hi' }])) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('the A2A switches', () => {
  let temp: string;
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-switches-'));
  });
  afterAll(() => rm(temp, { recursive: true, force: true }));

  it('serves nothing while AppConfig:AI:A2A:Enabled is false (the default), and says which switch', async () => {
    const t = await buildTestApp({ settings: bundleSettings(join(temp, 'off')) });
    try {
      const handle = await registerHandle(t.app);
      const card = await t.app.inject({ method: 'GET', url: `/a2a/${handle}/.well-known/agent-card.json` });
      expect(card.statusCode).toBe(404);
      expect(card.json()).toMatchObject({ title: 'Not found', detail: 'A2A is off on this host (AppConfig:AI:A2A:Enabled is false).' });
      expect((await t.app.inject({ method: 'POST', url: `/a2a/${handle}`, headers: { 'content-type': 'application/json' }, payload: send([{ text: 'hi' }]) })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses as the bundle routes do (403) while bundle execution is off', async () => {
    const t = await buildTestApp({ settings: a2aSettings(merge(bundleSettings(join(temp, 'no-bundles')), { AppConfig: { AI: { BundleExecution: { Enabled: false } } } })) });
    try {
      const card = await t.app.inject({ method: 'GET', url: '/a2a/any/.well-known/agent-card.json' });
      expect(card.statusCode).toBe(403);
      expect(card.json()).toMatchObject({ title: 'Forbidden', detail: expect.stringContaining('AppConfig:AI:BundleExecution:Enabled') });
      const post = await t.app.inject({ method: 'POST', url: '/a2a/any', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, payload: send([{ text: 'hi' }]) });
      expect(post.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
