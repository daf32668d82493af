// DESIGN §12 request ids over HTTP: accepted or generated, echoed on every response (problems,
// streams, router errors, refusals while closing), in every line of the request and as `traceId`.
import inject, { type Response as InjectedResponse } from 'light-my-request';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { SHUTTING_DOWN_DETAIL } from '../../src/platform/http/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { buildTestApp, loadTestConfig, type TestApp } from '../helpers/test-app.js';
import { chain, start, submit, pollUntil, isFinal, toolStep, workflowSettings } from './workflows-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appWithLog(settings?: Record<string, unknown>) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  t = await buildTestApp({ ...(settings === undefined ? {} : { settings }), deps: { logger } });
  return { app: t.app, lines };
}

describe('X-Request-Id', () => {
  it('echoes an acceptable id and carries it in the request log line as reqId', async () => {
    const { app, lines } = await appWithLog();
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'caller-chosen.1' } });
    expect(res.headers['x-request-id']).toBe('caller-chosen.1');
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ reqId: 'caller-chosen.1', route: '/healthz' });
  });

  it('generates one for a missing or unacceptable id, different per request, and logs that one', async () => {
    const { app, lines } = await appWithLog();
    const plain = await app.inject({ method: 'GET', url: '/healthz' });
    const bad = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'no spaces allowed' } });
    expect(plain.headers['x-request-id']).toMatch(UUID);
    expect(bad.headers['x-request-id']).toMatch(UUID);
    expect(bad.headers['x-request-id']).not.toBe(plain.headers['x-request-id']);
    const ids = lines.filter((line) => line.msg === 'request completed').map((line) => line.reqId);
    expect(ids).toEqual([plain.headers['x-request-id'], bad.headers['x-request-id']]);
  });

  it('puts the id in every problem document as traceId (not found, refused in a hook, router errors) and in every line of the request', async () => {
    const { app, lines } = await appWithLog();
    const notFound = await app.inject({ method: 'GET', url: '/api/nothing', headers: { 'x-request-id': 'nf-1' } });
    const invalid = await app.inject({ method: 'POST', url: '/api/tools/clock/invoke', headers: { 'x-request-id': 'bad-body' }, payload: { operation: 7 } });
    const badUrl = await app.inject({ method: 'GET', url: '/api/bundles/%E0%A4%A', headers: { 'x-request-id': 'bad-url' } });
    for (const [res, id] of [[notFound, 'nf-1'], [invalid, 'bad-body'], [badUrl, 'bad-url']] as const) {
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.json().traceId).toBe(id);
    }
    const ofInvalid = lines.filter((line) => line.reqId === 'bad-body');
    expect(ofInvalid.map((line) => line.msg)).toEqual(['request refused', 'request completed']);
  });

  it('echoes the id on a streamed (hijacked) response too', async () => {
    const { app } = await appWithLog(workflowSettings());
    const id = await submit(app, chain('one', toolStep('a')));
    const { jobId, statusUrl } = await start(app, id);
    await pollUntil(app, statusUrl, isFinal);
    const res = await app.inject({ method: 'GET', url: `/api/workflows/${id}/runs/${jobId}/stream`, headers: { 'x-request-id': 'stream-1' } });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['x-request-id']).toBe('stream-1');
  });

  it('answers a request that arrives while the service closes with a 503 problem carrying its id', async () => {
    const { config } = await loadTestConfig({});
    const { app } = await buildApp({ config, logger: createLogger({ level: 'silent' }) });
    let answer: InjectedResponse | undefined;
    app.addHook('onClose', async () => {
      // app.inject refuses once closing began; a request on a connection still open reaches the handler.
      const handler = app.server.listeners('request')[0] as Parameters<typeof inject>[0];
      answer = await inject(handler, { method: 'GET', url: '/healthz', headers: { 'x-request-id': 'late-1' } });
    });
    await app.ready();
    await app.close();
    expect(answer?.statusCode).toBe(503);
    expect(answer?.headers['x-request-id']).toBe('late-1');
    expect(answer?.headers.connection).toBe('close');
    expect(answer?.json()).toMatchObject({ title: 'Service unavailable', detail: SHUTTING_DOWN_DETAIL, traceId: 'late-1' });
  });
});
