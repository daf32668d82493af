// Workflow definitions over HTTP: submit/validate/list/get/delete (DESIGN §6), every validation
// diagnostic with its code, the MaxSteps/MaxDefinitionsPerOwner limits, the 2 MiB body limit,
// ownership (foreign ≡ unknown, also as a sub-plan target), rate-limit policies and OpenAPI entries.
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { sequentialIds } from '../../src/platform/clock/index.js';
import { definitionDiagnosticCodes } from '../../src/workflows/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { branchStep, chain, edges, gateStep, llmStep, retrievalStep, subPlanStep, submit, toolStep, workflowSettings } from './workflows-harness.js';
import { stripTraceId } from '../helpers/problem-body.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    settings: workflowSettings({ Workflows: { MaxSteps: 8, MaxDefinitionsPerOwner: 40 } }),
    deps: { ids: sequentialIds('wf') },
  });
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

/** The JSON request body schema the OpenAPI document gives for POST `path`, compiled. */
async function documentedBody(path: string): Promise<(body: unknown) => boolean> {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const ajv = new Ajv2020({ strict: false });
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, object>)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  const validate = ajv.compile(doc.paths[path].post.requestBody.content['application/json'].schema);
  return (body) => validate(body);
}

describe('submitting a definition', () => {
  it('answers 201 with the minted id, the step ids by name and createdAt, and a Location', async () => {
    const res = await post('/api/workflows', chain('greet', toolStep('now'), llmStep('say', 'Hello at {{ steps.now.output.iso }}')));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'name', 'steps']);
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.name).toBe('greet');
    expect(body.steps.map((s: { name: string }) => s.name)).toEqual(['now', 'say']);
    expect(new Set(body.steps.map((s: { id: string }) => s.id)).size).toBe(2);
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
    expect(res.headers.location).toBe(`/api/workflows/${body.id}`);
  });

  it('serves the stored definition with its ids, entry step and input', async () => {
    const definition = { ...chain('detail', toolStep('a'), toolStep('b')), configuration: { entryStep: 'a', input: { city: 'Oslo' } } };
    const id = await submit(t.app, definition);
    const res = await t.app.inject({ method: 'GET', url: `/api/workflows/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      name: 'detail',
      steps: [
        { name: 'a', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } },
        { name: 'b', type: 'ToolUse' },
      ],
      edges: [{ from: 'a', to: 'b', type: 'ControlFlow' }],
      configuration: { entryStep: 'a', input: { city: 'Oslo' } },
    });
    expect(res.json().steps[0].id).toEqual(expect.any(String));
  });

  it('lists the caller’s workflows newest first and forgets a deleted one', async () => {
    const first = await submit(t.app, chain('list-1', toolStep('a')));
    const second = await submit(t.app, chain('list-2', toolStep('a')));
    const listed = (await t.app.inject({ method: 'GET', url: '/api/workflows' })).json().workflows as Array<{ id: string; name: string; createdAt: string }>;
    expect(listed.findIndex((w) => w.id === second)).toBeLessThan(listed.findIndex((w) => w.id === first));
    expect(listed.find((w) => w.id === first)).toEqual({ id: first, name: 'list-1', createdAt: expect.any(String) });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/workflows/${first}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: `/api/workflows/${first}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/workflows/${first}` })).statusCode).toBe(404);
  });

  it('validates without storing: 200 with valid true, or valid false and the diagnostics submit would give', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/workflows' })).json().workflows.length;
    const good = await post('/api/workflows/validate', chain('dry', toolStep('a')));
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ valid: true, diagnostics: [] });
    const definition = { name: 'dry-bad', steps: [toolStep('a'), toolStep('b')], edges: edges('b>a') };
    const bad = await post('/api/workflows/validate', definition);
    expect(bad.statusCode).toBe(200);
    const submitted = await post('/api/workflows', definition);
    expect(bad.json()).toEqual({ valid: false, diagnostics: submitted.json().diagnostics });
    expect((await t.app.inject({ method: 'GET', url: '/api/workflows' })).json().workflows.length).toBe(before);
  });

  it('reports every structural error at once in a 400 problem with diagnostics', async () => {
    const res = await post('/api/workflows', {
      name: 'many',
      steps: [
        toolStep('a'),
        { name: 'a', type: 'LlmCall', configuration: { type: 'LlmCall', prompt: 'x' } },
        { name: 'b', type: 'LlmCall', configuration: { type: 'ToolUse' } },
        branchStep('c', '1 +', 'a', 'zz'),
      ],
      edges: edges('a>c', 'a>ghost'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const problem = res.json();
    expect(problem).toMatchObject({ type: 'urn:portcullis:problem:validation-failed', title: 'Validation failed', status: 400 });
    expect(problem.diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'duplicate-step-name',
      'configuration-type-mismatch',
      'unknown-edge-end',
      'unreachable-step',
      'incomplete-branch',
      'incomplete-branch',
      'invalid-condition',
    ]);
    for (const diagnostic of problem.diagnostics) expect(Object.keys(diagnostic).every((k) => ['code', 'step', 'edge', 'message'].includes(k))).toBe(true);
  });
});

describe('each validation diagnostic', () => {
  const cases: Record<string, () => Promise<unknown>> = {
    'invalid-definition': async () => [1, 2, 3],
    'missing-field': async () => ({ steps: [toolStep('a')] }),
    'invalid-field': async () => ({ name: 'w', steps: [toolStep('a')], edges: [], configuration: { input: 'not an object' } }),
    'too-many-steps': async () => chain('w', ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((n) => toolStep(n))),
    'invalid-step-name': async () => ({ name: 'w', steps: [toolStep('a.b')] }),
    'duplicate-step-name': async () => ({ name: 'w', steps: [toolStep('a'), toolStep('a')] }),
    'unknown-step-type': async () => ({ name: 'w', steps: [{ name: 'a', type: 'Teleport', configuration: { type: 'Teleport' } }] }),
    'configuration-type-mismatch': async () => ({ name: 'w', steps: [{ name: 'a', type: 'LlmCall', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now' } }] }),
    'unknown-entry-step': async () => ({ ...chain('w', toolStep('a')), configuration: { entryStep: 'zz' } }),
    'unknown-edge-end': async () => ({ name: 'w', steps: [toolStep('a')], edges: edges('a>ghost') }),
    'duplicate-edge': async () => ({ name: 'w', steps: [toolStep('a'), toolStep('b')], edges: edges('a>b', 'a>b') }),
    cycle: async () => ({ name: 'w', steps: [toolStep('a'), toolStep('b'), toolStep('c')], edges: edges('a>b', 'b>c', 'c>b') }),
    'unreachable-step': async () => ({ name: 'w', steps: [toolStep('a'), toolStep('island')] }),
    'incomplete-branch': async () => ({ name: 'w', steps: [branchStep('check', 'true', 'yes', 'no'), toolStep('yes'), toolStep('no')], edges: edges('check>yes') }),
    'undeclared-branch-edge': async () => ({
      name: 'w',
      steps: [branchStep('check', 'true', 'yes', 'no'), toolStep('yes'), toolStep('no'), toolStep('extra')],
      edges: edges('check>yes', 'check>no', 'check>extra'),
    }),
    'invalid-condition': async () => ({ name: 'w', steps: [branchStep('check', 'input.x >', 'yes', 'no'), toolStep('yes'), toolStep('no')], edges: edges('check>yes', 'check>no') }),
    'condition-too-costly': async () => ({ name: 'w', steps: [branchStep('check', 'input.l.exists(a, input.l.exists(b, false))', 'yes', 'no'), toolStep('yes'), toolStep('no')], edges: edges('check>yes', 'check>no') }),
    'condition-not-boolean': async () => ({ name: 'w', steps: [branchStep('check', '1 + 2', 'yes', 'no'), toolStep('yes'), toolStep('no')], edges: edges('check>yes', 'check>no') }),
    'invalid-template': async () => chain('w', llmStep('a', 'Hello {{ env.HOME }}')),
    'unknown-step-reference': async () => chain('w', llmStep('a', 'Hello {{ steps.ghost.output }}')),
    'step-reference-not-upstream': async () => chain('w', llmStep('a', 'Use {{ steps.b.output }}'), llmStep('b', 'x')),
    'unknown-index': async () => chain('w', retrievalStep('find', ['envelopes'], 3, 'no-such-index')),
    'unknown-field': async () => ({ name: 'w', steps: [{ ...toolStep('a'), configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', paramters: {} } }] }),
    'unknown-tool': async () => chain('w', toolStep('a', 'clok')),
    'unknown-operation': async () => chain('w', toolStep('a', 'clock', 'nowz')),
    'invalid-parameters': async () => chain('w', toolStep('a', 'clock', 'now', { timeZone: 7 })),
    'unknown-workflow': async () => chain('w', subPlanStep('sub', '00000000-0000-4000-8000-0000deadbeef')),
    'sub-plan-recursion': async () => {
      // Ids are minted by the host; with sequential test ids the next workflow's id is predictable,
      // which is the only way a definition can name itself.
      const probe = await post('/api/workflows', chain('probe', toolStep('only')));
      const lastId = probe.json().steps[0].id as string;
      const next = (parseInt(lastId.slice(-12), 16) + 1).toString(16).padStart(12, '0');
      return chain('self', subPlanStep('me', `00000000-0000-4000-8000-${next}`));
    },
    'sub-plan-too-deep': async () => {
      let id = await submit(t.app, chain('level-0', toolStep('leaf')));
      for (let level = 1; level <= 5; level += 1) id = await submit(t.app, chain(`level-${level}`, subPlanStep('down', id)));
      return chain('level-6', subPlanStep('down', id));
    },
  };

  it('has a case for every code validation can report (the start-only codes are workflows-runs’)', () => {
    expect(Object.keys(cases).sort()).toEqual([...definitionDiagnosticCodes].sort());
  });

  for (const [code, build] of Object.entries(cases)) {
    it(`answers 400 with a '${code}' diagnostic, and validate reports the same`, async () => {
      const definition = await build();
      const res = await post('/api/workflows', definition);
      expect(res.statusCode, res.body).toBe(400);
      const diagnostics = res.json().diagnostics as Array<{ code: string; message: string }>;
      expect(diagnostics.map((d) => d.code)).toContain(code);
      const dry = await post('/api/workflows/validate', definition);
      if (code !== 'sub-plan-recursion') expect(dry.json()).toEqual({ valid: false, diagnostics });
    });
  }

  it('names the step or the edge concerned', async () => {
    const res = await post('/api/workflows', { name: 'w', steps: [toolStep('a'), toolStep('island')], edges: edges('a>ghost') });
    expect(res.json().diagnostics).toEqual([
      { code: 'unknown-edge-end', edge: 0, message: "Edge 0: 'to' names no step ('ghost')." },
      { code: 'unreachable-step', step: 'island', message: "Step 'island' cannot be reached from the entry step 'a'." },
    ]);
  });
});

describe('limits', () => {
  it('accepts exactly MaxSteps steps and refuses one more with 400', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect((await post('/api/workflows', chain('max', ...names.map((n) => toolStep(n))))).statusCode).toBe(201);
    const over = await post('/api/workflows', chain('over', ...[...names, 'i'].map((n) => toolStep(n))));
    expect(over.statusCode).toBe(400);
    expect(over.json().diagnostics).toEqual([{ code: 'too-many-steps', message: 'The workflow has 9 steps; at most 8 are allowed.' }]);
  });

  it('accepts a definition body over 1 MiB and refuses one over 2 MiB with 400', async () => {
    const big = { ...chain('big', toolStep('a')), configuration: { input: { blob: 'x'.repeat(1_500_000) } } };
    expect((await post('/api/workflows', big)).statusCode).toBe(201);
    const huge = { ...chain('huge', toolStep('a')), configuration: { input: { blob: 'x'.repeat(2 * 1024 * 1024) } } };
    const res = await post('/api/workflows', huge);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('The request body is larger than this route accepts.');
  });

  it('refuses a definition beyond MaxDefinitionsPerOwner with 409, counting deletions', async () => {
    const app = await buildTestApp({ settings: workflowSettings({ Workflows: { MaxDefinitionsPerOwner: 2 } }) });
    try {
      const first = await submit(app.app, chain('one', toolStep('a')));
      await submit(app.app, chain('two', toolStep('a')));
      const third = await app.app.inject({ method: 'POST', url: '/api/workflows', payload: chain('three', toolStep('a')) });
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({ status: 409, title: 'Conflict' });
      expect((await app.app.inject({ method: 'DELETE', url: `/api/workflows/${first}` })).statusCode).toBe(204);
      await submit(app.app, chain('three', toolStep('a')));
    } finally {
      await app.close();
    }
  });
});

describe('ownership, rate limits and the API description', () => {
  let idp: DevIdp;
  let owned: TestApp;
  beforeAll(async () => {
    idp = await startTestIdp();
    owned = await buildTestApp({
      environment: 'Production',
      settings: idpSettings(idp, {
        BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } },
        RateLimits: { 'workflows-write': { PermitsPerMinute: 12 }, 'workflows-read': { PermitsPerMinute: 1000 } },
      }),
    });
  });
  afterAll(async () => {
    await owned.close();
    await idp.close();
  });

  it('answers a foreign workflow exactly like an unknown one, on every route', async () => {
    const alice = bearer(await idp.mintToken({ sub: 'alice' }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }));
    const id = await submit(owned.app, chain('private', toolStep('a')), alice);
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['POST', '/runs']] as const) {
      const foreign = await owned.app.inject({ method, url: `/api/workflows/${id}${suffix}`, headers: bob });
      const missing = await owned.app.inject({ method, url: `/api/workflows/${unknown}${suffix}`, headers: bob });
      expect(foreign.statusCode).toBe(404);
      expect({ ...stripTraceId(foreign.json()), instance: '' }).toEqual({ ...stripTraceId(missing.json()), instance: '' });
    }
    const listed = (await owned.app.inject({ method: 'GET', url: '/api/workflows', headers: bob })).json();
    expect(listed.workflows.find((w: { id: string }) => w.id === id)).toBeUndefined();
    const asSubPlan = await owned.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: bob, payload: chain('steal', subPlanStep('sub', id)) });
    const asUnknown = await owned.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: bob, payload: chain('steal', subPlanStep('sub', unknown)) });
    expect(asSubPlan.json()).toEqual(asUnknown.json());
    expect(asSubPlan.json().diagnostics[0].code).toBe('unknown-workflow');
  });

  it('draws submit and validate from workflows-write and list and get from workflows-read', async () => {
    const carol = bearer(await idp.mintToken({ sub: 'carol' }));
    const answers: number[] = [];
    for (let i = 0; i < 13; i += 1) {
      answers.push((await owned.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: carol, payload: chain('w', toolStep('a')) })).statusCode);
    }
    expect(answers.slice(0, 12).every((s) => s === 200)).toBe(true);
    const refused = await owned.app.inject({ method: 'POST', url: '/api/workflows', headers: carol, payload: chain('w', toolStep('a')) });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await owned.app.inject({ method: 'GET', url: '/api/workflows', headers: carol })).statusCode).toBe(200);
  });

  it('publishes a definition schema that refuses what the service refuses and accepts the README example', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const requestSchema = doc.paths['/api/workflows'].post.requestBody.content['application/json'].schema;
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, object>)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const accepts = ajv.compile(requestSchema);
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const order = JSON.parse(/`order\.json`[^`]*```json\n([\s\S]*?)```/.exec(readme)![1]!);
    expect(accepts(order), JSON.stringify(accepts.errors)).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: '/api/workflows/validate', payload: order })).json()).toEqual({ valid: true, diagnostics: [] });
    const typos = [
      { ...order, edgez: order.edges },
      { ...order, steps: [{ ...order.steps[0], configuration: { ...order.steps[0].configuration, paramters: {} } }, ...order.steps.slice(1)] },
      { ...order, configuration: { ...order.configuration, entry: 'stamp' } },
      { ...order, edges: [{ ...order.edges[0], kind: 'ControlFlow' }] },
    ];
    for (const typo of typos) {
      expect(accepts(typo)).toBe(false);
      const res = await t.app.inject({ method: 'POST', url: '/api/workflows/validate', payload: typo });
      expect(res.json().diagnostics.map((d: { code: string }) => d.code)).toContain('unknown-field');
    }
  });

  it('documents validate as reading any JSON, since it answers what WorkflowDefinition refuses with 200 and diagnostics', async () => {
    const accepts = await documentedBody('/api/workflows/validate');
    for (const body of [{ name: 'x', steps: [], extra: true }, [], 'a definition', null, 42]) {
      expect(accepts(body), JSON.stringify(body)).toBe(true);
      const res = await t.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json().valid).toBe(false);
    }
  });

  it('publishes the step name and gate timeout rules in the definition schema, refusing exactly what submit refuses', async () => {
    const accepts = await documentedBody('/api/workflows');
    const gate = (name: string, timeout?: string) => ({
      name: 'shape',
      steps: [{ name, type: 'HumanGate', configuration: { type: 'HumanGate', message: 'ok?', ...(timeout === undefined ? {} : { timeout }) } }],
    });
    for (const body of [gate('a.b'), gate(' a'), gate('a\u0000'), gate('\u{1F600}'.repeat(101)), gate('a', '00:00:00'), gate('a', '-01:00:00'), gate('a', '24:00:00')]) {
      expect(accepts(body), JSON.stringify(body)).toBe(false);
      expect((await post('/api/workflows', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const body of [gate('ask me'), gate('\u{1F600}'.repeat(100)), gate('a', ' 01:00:00 '), gate('a', '00:00:00.5')]) {
      expect(accepts(body), JSON.stringify(body)).toBe(true);
      expect((await post('/api/workflows', body)).statusCode, JSON.stringify(body)).toBe(201);
    }
  });

  it('documents every workflow route in the OpenAPI document', async () => {
    const doc = (await owned.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/workflows',
        '/api/workflows/validate',
        '/api/workflows/{workflowId}',
        '/api/workflows/{workflowId}/runs',
        '/api/workflows/{workflowId}/runs/{jobId}',
        '/api/workflows/{workflowId}/runs/{jobId}/stream',
        '/api/workflows/{workflowId}/runs/{jobId}/approvals/{approvalId}',
      ]),
    );
    expect(Object.keys(doc.paths['/api/workflows/{workflowId}/runs/{jobId}']).sort()).toEqual(['delete', 'get']);
  });
});

// Silence "unused" for builders only some cases need.
void gateStep;
