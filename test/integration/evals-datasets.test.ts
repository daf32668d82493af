// GET /api/evals/datasets: the names of the dataset files directly inside each configured root —
// without extension, sorted, not recursive, names never paths — truthful even while evaluation is
// disabled, and never 403. Every status code of the route: 200, 401, 429.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { buildEvalApp, startEvalHarness, tokenFor, writeDatasets, type EvalHarness } from './evals-harness.js';

const CASE = 'cases:\n  - input: hi\n';
let harness: EvalHarness;
let first: string;
let second: string;
const apps: TestApp[] = [];

async function app(ai: Record<string, unknown>, roots?: string[]): Promise<TestApp> {
  const t = await buildEvalApp(harness, ai, {}, roots);
  apps.push(t);
  return t;
}

function list(t: TestApp, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: '/api/evals/datasets', headers });
}

beforeAll(async () => {
  harness = await startEvalHarness();
  first = join(harness.root, 'first');
  second = join(harness.root, 'second');
  await writeDatasets(first, {
    'support.yaml': CASE,
    'billing.yml': CASE,
    'triage.json': { cases: [{ input: 'hi' }] },
    'smoke.jsonl': '{"input":"hi"}\n',
    'README.md': '# not a dataset',
    'notes.txt': 'not a dataset',
    '.hidden.yaml': CASE,
  });
  await writeDatasets(join(first, 'nested'), { 'deep.yaml': CASE });
  await writeDatasets(harness.root, { 'outside.yaml': CASE });
  await symlink(join(harness.root, 'outside.yaml'), join(first, 'linked.yaml'));
  await writeDatasets(second, { 'support.json': { cases: [{ input: 'hi' }] }, 'archive.yaml': CASE });
  await mkdir(join(second, 'folder.yaml'));
  await writeFile(join(second, 'Zeta.yaml'), CASE);
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await harness.close();
});

describe('GET /api/evals/datasets', () => {
  it('200 lists the dataset files directly inside every root by name, without extension, sorted, each name once', async () => {
    const t = await app({}, [first, second]);
    const res = await list(t, await tokenFor(harness, 'alice'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ datasets: ['Zeta', 'archive', 'billing', 'smoke', 'support', 'triage'] });
  });

  it('200 lists the configured roots while evaluation is disabled, for a caller without the role: never 403', async () => {
    const t = await app({ Evaluation: { Enabled: false } }, [second]);
    const res = await list(t, await tokenFor(harness, 'bob', []));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ datasets: ['Zeta', 'archive', 'support'] });
  });

  it('200 with an empty list when no roots are configured', async () => {
    const t = await app({ Evaluation: { Enabled: false } }, []);
    const res = await list(t, await tokenFor(harness, 'bob', []));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ datasets: [] });
  });

  it('200 with an empty list when a configured root does not exist', async () => {
    const t = await app({}, [join(harness.root, 'missing')]);
    expect((await list(t, await tokenFor(harness, 'alice'))).json()).toEqual({ datasets: [] });
  });

  it('401 without a bearer token', async () => {
    const t = await app({}, [first]);
    const res = await list(t);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('429 with Retry-After once the caller exhausts the evals-read policy', async () => {
    const t = await app({ RateLimits: { 'evals-read': { PermitsPerMinute: 2 } } }, [first]);
    const headers = await tokenFor(harness, 'carol');
    expect((await list(t, headers)).statusCode).toBe(200);
    expect((await list(t, headers)).statusCode).toBe(200);
    const refused = await list(t, headers);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toContain('application/problem+json');
  });
});

describe('the OpenAPI document', () => {
  it('describes every eval route with its documented status codes', async () => {
    const t = await app({}, [first]);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    expect(codes('/api/evals/datasets', 'get')).toEqual(['200', '401', '429']);
    expect(codes('/api/evals/runs', 'post')).toEqual(['202', '400', '401', '403', '404', '409', '422', '429']);
    expect(codes('/api/evals/runs/{jobId}', 'get')).toEqual(['200', '401', '403', '404', '429']);
    expect(codes('/api/evals/runs/{jobId}', 'delete')).toEqual(['200', '401', '403', '404', '409', '429']);
    expect(codes('/api/evals/runs/{jobId}/report.xml', 'get')).toEqual(['200', '401', '403', '404', '409', '429']);
    expect(Object.keys(doc.paths['/api/evals/runs/{jobId}/report.xml'].get.responses['200'].content)).toEqual(['application/xml']);
    expect(doc.paths['/api/evals/runs'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StartEvalRunRequest' });
    expect(doc.components.schemas.StartEvalRunRequest.properties).toHaveProperty('tagFilter');
  });
});
