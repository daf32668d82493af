// Issue 12 "honest health" over HTTP: an identity provider that cannot be reached answers 503
// (Service unavailable, the detail says so), not the 401 that blames the caller's token, and the log
// says so once per state change; /readyz names the failing categories of configured dependencies
// (identity, MCP servers, storage…) and nothing internal; auth failures are counted by reason.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let idp: DevIdp;
let token: string;
let t: TestApp;
let mcpUrl: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  // A real token from a provider that then goes away: the token is fine, the provider is not.
  idp = await startTestIdp();
  token = await idp.mintToken({ sub: 'alice' });
  const settings = idpSettings(idp, { McpServers: { tools: { Transport: 'http', Url: (mcpUrl = `http://127.0.0.1:${await closedPort()}/mcp`) } } });
  await idp.close();
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  t = await buildTestApp({ environment: 'Production', settings, deps: { logger } });
});

afterAll(async () => {
  await t.close();
});

describe('an unreachable identity provider', () => {
  it('answers 503 Service unavailable saying the identity provider cannot be reached, for a token it could not check', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'GET', url: '/api/tools', headers: bearer(token) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ status: 503, title: 'Service unavailable', detail: expect.stringContaining('identity provider cannot be reached') });
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('still answers 401 to a request without a token (nothing needed checking)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/tools' })).statusCode).toBe(401);
  });

  it('says so in one warn line, not one per request, naming no token', () => {
    const warnings = lines.filter((line) => line.event === 'identity_provider.unreachable');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('counts authentication failures by reason', async () => {
    const metrics = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    expect(metrics.value('portcullis_auth_failures_total', { reason: 'identity_provider_unavailable' })).toBe(3);
    expect(metrics.value('portcullis_auth_failures_total', { reason: 'missing' })).toBe(1);
  });
});

describe('GET /readyz', () => {
  it('answers 503 listing the failing categories (identity, MCP servers) and the passing ones, never a URL or a server name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    const body = res.json<{ checks: Record<string, boolean>; failing: string[]; title: string }>();
    expect(body.title).toBe('Service unavailable');
    expect(body.failing.sort()).toEqual(['identity', 'mcpServers']);
    expect(body.checks).toEqual({ identity: false, storage: true, mcpServers: false });
    expect(res.body).not.toContain(mcpUrl);
    expect(res.body).not.toContain('"tools"');
    expect(res.body).not.toContain(idp.instance);
  });

  it('answers 200 with every configured category when all answer', async () => {
    const ok = await buildTestApp();
    try {
      const res = await ok.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ready', checks: { identity: true, storage: true } });
    } finally {
      await ok.close();
    }
  });
});
