// The OpenAPI contract as a client generator sees it (issue 13): Redocly's recommended ruleset passes
// with no error and no warning, every operation has a stable operationId, bodies reference named
// component schemas, every error status is a problem document, and the version is the package's.
// Also the routing answers the fuzzer found wrong: QUERY on a known path, Allow lists, over-long ids.
import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/cli-process.js';
import { REPO_ROOT, startLiveService, type LiveService } from '../helpers/live-service.js';

type Doc = {
  info: { version: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
type Media = Record<string, { schema?: { $ref?: string } }>;
type Operation = { operationId?: string; security?: unknown[]; requestBody?: { content: Media }; responses: Record<string, { content?: Media }> };

let live: LiveService;
let doc: Doc;
beforeAll(async () => {
  live = await startLiveService();
  doc = (await (await fetch(`${live.url}/openapi.json`)).json()) as Doc;
});
afterAll(async () => live.close());

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, Operation]));
}

describe('the OpenAPI document', () => {
  it('passes redocly lint (recommended ruleset) with 0 errors and 0 warnings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portcullis-redocly-'));
    try {
      // Laid out as the repository is after a build, so the checked-in config applies as it is; there
      // is no ignore file (nothing is exempted), and none is honoured here.
      await expect(access(join(REPO_ROOT, '.redocly.lint-ignore.yaml'))).rejects.toThrow();
      await mkdir(join(dir, 'dist'));
      await writeFile(join(dir, 'dist', 'openapi.json'), JSON.stringify(doc));
      await copyFile(join(REPO_ROOT, 'redocly.yaml'), join(dir, 'redocly.yaml'));
      const cli = join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const result = await runProcess(process.execPath, [cli, 'lint', 'dist/openapi.json', '--format=json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number; ignored: number }; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 0 });
      expect(result.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('carries the package version (2.0.0) as info.version and a relative server', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe('2.0.0');
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map(([, , op]) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/bundles/{handle}/agui']?.post?.operationId).toBe('runBundleAgui');
  });

  it('references named component schemas from every JSON request body and JSON success response', () => {
    for (const [path, method, op] of operations()) {
      const bodies = [op.requestBody?.content['application/json'], ...Object.entries(op.responses).filter(([s]) => s.startsWith('2')).map(([, r]) => r.content?.['application/json'])];
      for (const media of bodies) {
        if (media === undefined) continue;
        const ref = media.schema?.$ref;
        expect(ref, `${method.toUpperCase()} ${path}`).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
        expect(doc.components.schemas[ref!.slice('#/components/schemas/'.length)]).toBeDefined();
      }
    }
  });

  it('lints with Redocly CLI 2.77 or later (the release that reported the probes)', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as { version: string };
    const [major = 0, minor = 0] = pkg.version.split('.').map(Number);
    expect(major > 2 || (major === 2 && minor >= 77), pkg.version).toBe(true);
  });

  it('declares on each public, input-free GET only the bodiless 4XX of the HTTP parser', () => {
    const publicGets = operations().filter(([, method, op]) => method === 'get' && op.security?.length === 0);
    expect(publicGets.map(([path]) => path).sort()).toEqual(['/.well-known/oauth-protected-resource', '/healthz', '/metrics', '/openapi.json', '/readyz'].filter((p) => p in doc.paths).sort());
    for (const [path, , op] of publicGets) {
      expect(Object.keys(op.responses).filter((status) => status.startsWith('4')), path).toEqual(['4XX']);
      expect(op.responses['4XX'], path).toEqual({ description: expect.stringMatching(/^Never sent by the route itself; .*400.*431.*no body\.$/) });
    }
  });

  it('lists every error status with the problem schema under application/problem+json', () => {
    for (const [path, method, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '4XX' || Number(status) < 400) continue;
        expect(response.content, `${method.toUpperCase()} ${path} ${status}`).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } });
      }
    }
  });

  it('declares the limits the service holds request bodies to (config ceilings, empty names, closed objects)', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>>; additionalProperties?: unknown }>;
    expect(schemas.StartEvalRunRequest!.properties.parallelism).toMatchObject({ minimum: 1, maximum: 128 });
    expect(schemas.StartEvalRunRequest!.properties.repeats).toMatchObject({ minimum: 1, maximum: 50 });
    expect(schemas.WorkflowDefinition!.properties.name).toMatchObject({ minLength: 1 });
    for (const name of ['StartEvalRunRequest', 'RunBundleRequest', 'ToolInvocationRequest', 'StartWorkflowRunRequest', 'ApprovalDecisionRequest', 'RunAgentInput']) {
      expect(schemas[name]?.additionalProperties, name).toBe(false);
    }
  });
});

describe('routing answers the document can promise', () => {
  it('answers QUERY on /healthz with 405 and Allow, not 400', async () => {
    const res = await fetch(`${live.url}/healthz`, { method: 'QUERY' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('lists only the methods of /api/workflows/validate in Allow, not those of /api/workflows/{workflowId}', async () => {
    const res = await fetch(`${live.url}/api/workflows/validate`, { method: 'OPTIONS' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers a path id longer than its documented maximum with 404, a status the operation lists', async () => {
    const headers = { authorization: `Bearer ${await live.token('contract-user')}` };
    for (const path of [`/api/workflows/${'w'.repeat(101)}`, `/api/bundles/${'h'.repeat(201)}/runs`, `/api/evals/runs/${'j'.repeat(257)}`]) {
      const res = await fetch(`${live.url}${path}`, { headers });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { title: string }).title).toBe('Not found');
    }
  });
});
