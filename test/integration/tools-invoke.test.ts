// Every row of SPEC.md's invoke status table, driven over HTTP with real tokens from a loopback
// identity provider; plus the catalog and describe routes.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { stripTraceId, withoutTraceId } from '../helpers/problem-body.js';
import { startHangingServer, type HangingServer } from '../helpers/hanging-server.js';

const INVOKE = 'Harness.Tools.Invoke';
let idp: DevIdp;
let t: TestApp;
let hanging: HangingServer;

function settings(overrides: { enabled?: boolean } = {}) {
  return idpSettings(idp, {
    DirectToolInvocation: { Enabled: overrides.enabled ?? true, MaxRequestBytes: 2048 },
    Tools: { HttpFetch: { AllowedHosts: ['127.0.0.1'], TimeoutSeconds: 20 } },
    BundleExecution: {
      Envelopes: {
        BySubject: {
          alice: { AllowedTools: ['clock', 'calculator', 'json', 'memory', 'http_fetch', 'delegate_task'], AutonomyCeiling: 'Autonomous' },
          sam: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised' },
        },
      },
    },
  });
}

beforeAll(async () => {
  idp = await startTestIdp();
  hanging = await startHangingServer();
  t = await buildTestApp({ environment: 'Production', settings: settings() });
});
afterAll(async () => {
  await t.close();
  await hanging.close();
  await idp.close();
});

async function token(sub: string, roles: string[] = [INVOKE]): Promise<Record<string, string>> {
  return bearer(await idp.mintToken({ sub, roles }));
}

function invoke(app: TestApp['app'], name: string, headers: Record<string, string>, body: unknown) {
  return app.inject({
    method: 'POST',
    url: `/api/tools/${name}/invoke`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('catalog', () => {
  it('lists only granted, constructible tools ordered by name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tools', headers: await token('alice', []) });
    expect(res.statusCode).toBe(200);
    const names = res.json().tools.map((x: { name: string }) => x.name);
    expect(names).toEqual(['calculator', 'clock', 'delegate_task', 'http_fetch', 'json', 'memory']);
    expect(res.json().tools[1]).toEqual({
      name: 'clock',
      description: expect.any(String),
      operations: ['now', 'convert'],
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
    });
  });

  it('answers an empty catalog as a success', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tools', headers: await token('nobody', []) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tools: [] });
  });

  it('describes a granted tool case-insensitively and hides ungranted ones like unknown ones', async () => {
    const headers = await token('sam', []);
    const ok = await t.app.inject({ method: 'GET', url: '/api/tools/CLOCK', headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().parameters.now).toMatchObject({ type: 'object' });
    const notGranted = await t.app.inject({ method: 'GET', url: '/api/tools/memory', headers });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/tools/no_such_tool', headers });
    const unconstructible = await t.app.inject({ method: 'GET', url: '/api/tools/render_chart', headers });
    for (const res of [notGranted, unknown, unconstructible]) {
      expect(res.statusCode).toBe(404);
      expect({ ...stripTraceId(res.json()), instance: '' }).toEqual({ ...stripTraceId(notGranted.json()), instance: '' });
    }
  });

  it('answers an empty or overlong name 404 like any unknown tool (describe lists no 400)', async () => {
    const headers = await token('sam', []);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/tools/no_such_tool', headers });
    for (const url of ['/api/tools/', `/api/tools/${'a'.repeat(300)}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect({ ...stripTraceId(res.json()), instance: '' }).toEqual({ ...stripTraceId(unknown.json()), instance: '' });
    }
  });
});

describe('invoke status table', () => {
  it('200 with succeeded true when the tool ran and reported success', async () => {
    const res = await invoke(t.app, 'Clock', await token('alice'), { operation: 'now', parameters: { timeZone: 'Europe/Paris' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ tool: 'clock', operation: 'now', succeeded: true, outputTruncated: false });
    expect(JSON.parse(body.output)).toMatchObject({ timeZone: 'Europe/Paris' });
    expect(Number.isInteger(body.durationMs)).toBe(true);
    expect(body.error).toBeUndefined();
  });

  it('200 with succeeded false when the tool ran and reported failure', async () => {
    const res = await invoke(t.app, 'json', await token('alice'), { operation: 'query', parameters: { data: {}, expression: '[[[' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tool: 'json', operation: 'query', succeeded: false });
    expect(res.json().error).toEqual(expect.any(String));
    expect(res.json().output).toBeUndefined();
  });

  it('400 for a malformed request', async () => {
    const res = await invoke(t.app, 'clock', await token('alice'), { parameters: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('Validation failed');
  });

  it('400 naming the accepted operations for an undeclared one', async () => {
    const res = await invoke(t.app, 'clock', await token('alice'), { operation: 'explode' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('now, convert');
  });

  it('400 for too many parameters', async () => {
    const parameters = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, 1]));
    const res = await invoke(t.app, 'clock', await token('alice'), { operation: 'now', parameters });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('too many parameters');
  });

  it('400 for a parameter the operation does not declare', async () => {
    const res = await invoke(t.app, 'clock', await token('alice'), { operation: 'now', parameters: { owner: 'x' } });
    expect(res.statusCode).toBe(400);
  });

  it('401 with no credential, and for an owner id outside [A-Za-z0-9._:-]', async () => {
    expect((await invoke(t.app, 'clock', {}, { operation: 'now' })).statusCode).toBe(401);
    const spaced = await token('alice smith');
    const res = await invoke(t.app, 'clock', spaced, { operation: 'now' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect((await t.app.inject({ method: 'GET', url: '/api/tools', headers: spaced })).statusCode).toBe(200);
  });

  it('403 alike for a missing role, a governance refusal and a disabled surface', async () => {
    const noRole = await invoke(t.app, 'clock', await token('alice', []), { operation: 'now' });
    const supervised = await invoke(t.app, 'clock', await token('sam'), { operation: 'now' });
    const secret = await invoke(t.app, 'memory', await token('alice'), {
      operation: 'set',
      parameters: { key: 'k', value: 'ghp_0123456789abcdefghijklmnopqrstuvwxyz' },
    });
    const off = await buildTestApp({ environment: 'Production', settings: settings({ enabled: false }) });
    const disabled = await invoke(off.app, 'clock', await token('alice'), { operation: 'now' });
    await off.close();
    for (const res of [noRole, supervised, disabled]) {
      expect(res.statusCode).toBe(403);
      expect(withoutTraceId(res.body)).toBe(withoutTraceId(noRole.body));
    }
    expect(secret.statusCode).toBe(403);
    expect({ ...stripTraceId(secret.json()), instance: '' }).toEqual({ ...stripTraceId(noRole.json()), instance: '' });
  });

  it('404 alike for no such tool, not granted, and not directly invocable', async () => {
    const headers = await token('alice');
    const responses = await Promise.all(
      ['no_such_tool', 'text', 'delegate_task', 'render_table', 'dashboard_control'].map((name) =>
        invoke(t.app, name, headers, { operation: 'run' }),
      ),
    );
    for (const res of responses) {
      expect(res.statusCode).toBe(404);
      expect({ ...stripTraceId(res.json()), instance: '' }).toEqual({ ...stripTraceId(responses[0]!.json()), instance: '' });
    }
  });

  it('413 for a body over MaxRequestBytes', async () => {
    const res = await invoke(t.app, 'clock', await token('alice'), { operation: 'now', parameters: { pad: 'x'.repeat(4096) } });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('application/problem+json');
  });

  it('429 at once when the caller already has 4 invocations executing, 504 past the deadline', async () => {
    const headers = await token('alice');
    const running = Array.from({ length: 4 }, () =>
      invoke(t.app, 'http_fetch', headers, { operation: 'get', parameters: { url: hanging.url } }),
    );
    await expect.poll(() => hanging.waiting()).toBe(4);
    const fifth = await invoke(t.app, 'clock', headers, { operation: 'now' });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.headers['retry-after']).toBeDefined();
    hanging.releaseAll();
    for (const res of await Promise.all(running)) expect(res.json()).toMatchObject({ succeeded: true });

    const late = await invoke(t.app, 'http_fetch', headers, { operation: 'get', parameters: { url: hanging.url }, timeoutSeconds: 0.3 });
    expect(late.statusCode).toBe(504);
    expect(late.json().title).toBe('Deadline exceeded');
    hanging.releaseAll();
  });
});

describe('over a real socket', () => {
  it('runs the tool to completion once the request body has been read', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${address.port}/api/tools/clock/invoke`, {
      method: 'POST',
      headers: { ...(await token('alice')), 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'now', parameters: { timeZone: 'UTC' } }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ succeeded: true });
  });
});
