// The HTTP platform as a client sees it: public routes, problem documents, 404/405, body hardening.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { withoutIdEcho } from '../helpers/problem-body.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('public routes', () => {
  it('answers liveness without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('reports readiness with each check named', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', checks: { identity: true } });
  });

  it('serves an OpenAPI 3.1 document at version 2.0.0 with a bearer scheme and every api route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.0.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const path of ['/healthz', '/readyz', '/api/capabilities', '/api/tools', '/api/tools/{name}', '/api/tools/{name}/invoke']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/docs'))).toBe(false);
  });

  it('documents every error response as application/problem+json, the media type actually sent', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    let errors = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: object }> }>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          // The public probes' bodiless 4XX (Node's parser, never the route) is checked in openapi-contract.test.ts.
          if (status === '4XX' || Number(status) < 400) continue;
          errors += 1;
          expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual(['application/problem+json']);
        }
      }
    }
    expect(errors).toBeGreaterThan(10);
    const invoke413 = doc.paths['/api/tools/{name}/invoke'].post.responses['413'];
    expect(invoke413.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
  });

  it('publishes the named resources of SPEC.md under components.schemas, every reference resolving', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    for (const name of ['ProblemDetails', 'ToolCatalogEntry', 'ToolCatalogResponse', 'ToolInvocationRequest', 'ToolInvocationResponse', 'CapabilitiesResponse']) {
      expect(Object.keys(schemas)).toContain(name);
    }
    expect(Object.keys(schemas.ToolInvocationRequest!.properties ?? {})).toEqual(['operation', 'parameters', 'timeoutSeconds']);
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of refs) {
      const target = /#\/components\/schemas\/([^"/]+)"$/.exec(ref);
      expect(target, ref).not.toBeNull();
      expect(Object.keys(schemas), ref).toContain(target![1]);
    }
    expect(JSON.stringify(doc.components.schemas)).not.toContain('"$id"');
  });

  it('renders an API reference page at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: res.headers.location as string }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('problem documents', () => {
  it('answers an unknown path with a 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here?secret=x' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json()).toEqual({
      type: 'urn:portcullis:problem:not-found',
      title: 'Not found',
      status: 404,
      detail: 'No resource exists at this path.',
      instance: '/api/nothing-here',
      traceId: res.headers['x-request-id'],
    });
  });

  it('answers a known path with the wrong method as 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/tools' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toMatchObject({ title: 'Method not allowed', status: 405 });
  });

  it('answers 405 for a path of a route of other methods even where a parametric route of this method matches it', async () => {
    for (const [method, url, allow] of [
      ['GET', '/api/workflows/validate', 'POST'],
      ['HEAD', '/api/workflows/validate', 'POST'],
      ['DELETE', '/api/workflows/runs', 'GET, HEAD'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
    }
    const parametric = await t.app.inject({ method: 'GET', url: '/api/workflows/6f1c9d3e-8a7b-4c2d-9e0f-1a2b3c4d5e6f' });
    expect(parametric.statusCode).toBe(404);
  });

  it('reads an empty JSON body as no body, so a wrong method still answers 405', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/tools', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(405);
  });

  it('answers an over-long path parameter as the unknown id it is, echoing at most 256 characters of the path', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/api/tools/${'a'.repeat(5000)}` });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/tools/no-such-tool' });
    expect(long.statusCode).toBe(404);
    expect(long.headers['content-type']).toBe('application/problem+json');
    expect(withoutIdEcho(long.body)).toBe(withoutIdEcho(unknown.body));
    expect(long.json<{ instance: string }>().instance).toBe(`/api/tools/${'a'.repeat(256 - '/api/tools/'.length)}`);
  });

  it('never cuts the echoed path inside a percent-escape', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/tools/${'a'.repeat(256 - '/api/tools/'.length - 1)}%C3%A9${'b'.repeat(300)}` });
    expect(res.json<{ instance: string }>().instance).toBe(`/api/tools/${'a'.repeat(256 - '/api/tools/'.length - 1)}`);
  });

  it('answers a path whose escapes do not decode as the unknown path or id it is, echoing it as sent', async () => {
    for (const [method, url, status, unknown] of [
      ['GET', '/api/tools/%ZZ', 404, '/api/tools/no-such-tool'],
      ['GET', '/api/%FF', 404, '/api/no-such-path'],
      ['GET', '/healthz%C3', 404, '/healthzz'],
      ['PUT', '/api/tools/%FF', 405, '/api/tools/no-such-tool'],
      ['GET', '/docs/%FF', 404, '/docs/no-such-file'],
    ] as const) {
      const bad = await t.app.inject({ method, url });
      const ordinary = await t.app.inject({ method, url: unknown });
      expect(bad.statusCode, url).toBe(status);
      expect(ordinary.statusCode, unknown).toBe(status);
      expect(bad.headers['content-type'], url).toBe('application/problem+json');
      expect(bad.headers.allow, url).toBe(ordinary.headers.allow);
      expect(withoutIdEcho(bad.body), url).toBe(withoutIdEcho(ordinary.body));
      expect(bad.json<{ instance: string }>().instance, url).toBe(url);
    }
  });

  it('refuses a 10,000-deep JSON body with 400, not 500', async () => {
    const body = '['.repeat(10_000) + ']'.repeat(10_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tools/clock/invoke',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'Validation failed', status: 400 });
  });

  it('refuses malformed JSON without echoing it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tools/clock/invoke',
      headers: { 'content-type': 'application/json' },
      payload: '{"operation": "now", "parameters": {"password": "hunter2"',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('hunter2');
  });

  it('refuses an unsupported content type with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tools/clock/invoke',
      headers: { 'content-type': 'text/plain' },
      payload: 'now',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      'The request Content-Type is missing or not accepted by this route: send Content-Type: application/json (bundle uploads take multipart/form-data).',
    );
  });

  it('names application/json when a JSON body comes without any Content-Type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/tools/clock/invoke', payload: Buffer.from('{"operation":"now"}') });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('Content-Type: application/json');
  });
});
