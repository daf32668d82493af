import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createLogger } from '../log/index.js';
import { ANONYMOUS_PRINCIPAL } from '../auth/index.js';
import { ownerDigest } from './request-log.js';

const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';
let t: TestApp | undefined;
afterEach(async () => t?.close());

async function appWithCapturedLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  t = await buildTestApp({ deps: { logger } });
  return { app: t.app, lines: () => lines.filter((line) => line.msg === 'request completed') };
}

describe('the request log', () => {
  it('writes one line per request with method, route pattern, status, duration, request id and hashed owner', async () => {
    const { app, lines } = await appWithCapturedLog();
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/api/capabilities' });
    const [health, capabilities] = lines();
    expect(lines()).toHaveLength(2);
    expect(health).toMatchObject({ method: 'GET', route: '/healthz', status: 200, owner: null, reqId: expect.any(String) });
    expect(capabilities).toMatchObject({ route: '/api/capabilities', status: 200, owner: ownerDigest(ANONYMOUS_PRINCIPAL) });
    expect(typeof capabilities!.durationMs).toBe('number');
    expect(capabilities!.reqId).not.toBe(health!.reqId);
  });

  it('logs the /docs page, which no authentication hook sees, without an owner', async () => {
    const { app, lines } = await appWithCapturedLog();
    const res = await app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBeLessThan(400);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ method: 'GET', owner: null });
  });

  it('never writes the URL, query, headers or body a caller sent', async () => {
    const { app, lines } = await appWithCapturedLog();
    await app.inject({
      method: 'POST',
      url: `/api/tools/clock/invoke?api_key=${SECRET}`,
      headers: { authorization: `Bearer ${SECRET}`, 'x-note': SECRET, 'content-type': 'application/json' },
      payload: { operation: 'now', parameters: { note: SECRET } },
    });
    await app.inject({ method: 'GET', url: `/no/such/${SECRET}` });
    const written = JSON.stringify(lines());
    expect(lines()).toHaveLength(2);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain('api_key');
    expect(lines()[1]).toMatchObject({ route: null, status: 404 });
  });

  it('hashes the owner id rather than writing it', () => {
    const digest = ownerDigest(ANONYMOUS_PRINCIPAL);
    expect(digest).toMatch(/^sha256:[A-Za-z0-9_-]{16}$/);
    expect(digest).not.toContain(ANONYMOUS_PRINCIPAL.ownerId);
    expect(ownerDigest({ ...ANONYMOUS_PRINCIPAL, ownerId: 'sub:other' })).not.toBe(digest);
  });
});
