// A property-based test driven by the OpenAPI document itself (issue 13): for every operation,
// fast-check derives path ids, query strings and bodies from the document's own schemas (valid ones,
// and mutations of them), sends them over real HTTP to a running service with every family enabled,
// and checks: no 5xx; every status is one the document lists for that operation; every body has a
// media type the document lists for that status and every JSON body validates against its schema.
// For operations whose request schema is the whole story of a 400, a schema-valid request is never 400.
// Fixed seed and a bounded number of runs per operation keep it reproducible and quick.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveService, type LiveService } from '../helpers/live-service.js';
import { arbitraryOf, mutated, type JsonSchema } from '../helpers/schema-arbitrary.js';
import { AGENT_MD, bundleZip } from './bundles-harness.js';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;
const SEED = 1313;
const RUNS_PER_OPERATION = 25;

type Media = Record<string, { schema?: JsonSchema }>;
interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required?: boolean;
  readonly schema: JsonSchema;
}
interface Operation {
  readonly operationId: string;
  readonly parameters?: Parameter[];
  readonly requestBody?: { required?: boolean; content: Media };
  readonly responses: Record<string, { content?: Media }>;
}
interface Doc {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { schemas: Record<string, JsonSchema> };
}

/** Operations where nothing but the request schema can make a 400: a schema-valid request must not get one. */
const SCHEMA_IS_THE_WHOLE_400 = new Set([
  'startBundleRun',
  'startWorkflowRun',
  'decideApproval',
  'listBundles',
  'listApprovals',
  'listEvalRuns',
  'listBundleRuns',
  'listWorkflowRuns',
  'startEvalRun',
]);
/** The 400s no request schema can express: a forged cursor, SPEC.md's per-owner cap on active eval runs, a tag filter the datasets' cases do not carry. */
function refusedBeyondSchema(sent: Sent, text: string): boolean {
  return sent.query.includes('cursor=') || text.includes('MaxActiveRunsPerOwner') || text.includes('tagFilter selects no case');
}

let live: LiveService;
let doc: Doc;
let auth: Record<string, string>;
const known: Record<string, string[]> = {};
const figures = { operations: 0, requests: 0, statuses: new Map<number, number>() };
const started = Date.now();

async function json(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${live.url}${path}`, { ...init, headers: { ...auth, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('fixture did not settle');
}

/** Real resources, so generated requests reach past 404 into the operations' other answers. */
async function fixtures(): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([bundleZip({ 'AGENT.md': AGENT_MD })]), 'helper.zip');
  const handle = ((await (await fetch(`${live.url}/api/bundles`, { method: 'POST', headers: auth, body: form })).json()) as { handle: string }).handle;
  const bundleJob = (await json(`/api/bundles/${handle}/runs`, { method: 'POST', body: JSON.stringify({ userMessages: ['hello'] }) })).jobId as string;
  const tool = { name: 'fuzz', steps: [{ name: 'add', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'calculator', operation: 'evaluate', parameters: { expression: '1+1' } } }] };
  const workflowId = (await json('/api/workflows', { method: 'POST', body: JSON.stringify(tool) })).id as string;
  const workflowJob = (await json(`/api/workflows/${workflowId}/runs`, { method: 'POST' })).jobId as string;
  const gate = { name: 'gate', steps: [{ name: 'ask', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'ok?' } }] };
  const gateId = (await json('/api/workflows', { method: 'POST', body: JSON.stringify(gate) })).id as string;
  const gateJob = (await json(`/api/workflows/${gateId}/runs`, { method: 'POST' })).jobId as string;
  const blocked = await until(() => json(`/api/workflows/${gateId}/runs/${gateJob}`), (run) => run.status === 'Blocked');
  const approvalId = (blocked.pendingApprovals as Array<{ approvalId: string }>)[0]!.approvalId;
  const evalJob = (await json('/api/evals/runs', { method: 'POST', body: JSON.stringify({ datasets: ['arithmetic'] }) })).jobId as string;
  await until(() => json(`/api/workflows/${workflowId}/runs/${workflowJob}`), (run) => run.status === 'Succeeded');
  Object.assign(known, {
    handle: [handle],
    jobId: [bundleJob, workflowJob, gateJob, evalJob],
    workflowId: [workflowId, gateId],
    approvalId: [approvalId],
    name: ['calculator', 'clock', 'memory'],
    datasets: ['arithmetic', 'capitals'],
  });
}

beforeAll(async () => {
  live = await startLiveService();
  auth = { authorization: `Bearer ${await live.token('fuzz-user')}` };
  doc = (await (await fetch(`${live.url}/openapi.json`)).json()) as Doc;
  await fixtures();
}, 60_000);
afterAll(async () => {
  await live.close();
  const statuses = [...figures.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`openapi property test: ${figures.operations} operations, ${figures.requests} requests, ${Date.now() - started} ms (seed ${SEED}); statuses ${statuses}`);
});

const resolve = (ref: string): JsonSchema => doc.components.schemas[ref.slice('#/components/schemas/'.length)]!;

function validators() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  return (schema: JsonSchema) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object);
}

interface Sent {
  readonly path: string;
  readonly query: string;
  readonly body: { kind: 'json'; value: unknown } | { kind: 'multipart'; bytes: Uint8Array } | { kind: 'none' };
}

function requestArbitrary(template: string, op: Operation): fc.Arbitrary<Sent> {
  const params = op.parameters ?? [];
  // Path ids: the real ones, generated ones within the declared limits, and ones just past them.
  const pathId = (p: Parameter) => {
    const max = typeof p.schema.maxLength === 'number' ? p.schema.maxLength : undefined;
    const over = max === undefined ? [] : [{ weight: 1, arbitrary: fc.string({ minLength: max + 1, maxLength: max + 16, unit: fc.constantFrom('a', 'Z', '9', '-') }) }];
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(known[p.name] ?? ['x'])) }, { weight: 1, arbitrary: arbitraryOf(p.schema, resolve) }, ...over);
  };
  const path = fc.tuple(...params.filter((p) => p.in === 'path').map((p) => pathId(p).map((v) => [p.name, String(v)] as const))).map((pairs) => pairs.reduce((url, [name, value]) => url.replace(`{${name}}`, encodeURIComponent(value)), template));
  const query = fc
    .record(Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, arbitraryOf(p.schema, resolve)])), { requiredKeys: [] })
    .map((values) => new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)])).toString());
  const content = op.requestBody?.content ?? {};
  let body: fc.Arbitrary<Sent['body']> = fc.constant({ kind: 'none' as const });
  if (content['application/json']?.schema) {
    let valid = arbitraryOf(content['application/json'].schema, resolve);
    // Real dataset names half of the time, so generated options reach the service's own checks.
    if (op.operationId === 'startEvalRun') {
      const named = fc.tuple(valid, fc.subarray(known.datasets!, { minLength: 1 })).map(([body, datasets]) => ({ ...(body as object), datasets }));
      valid = fc.oneof(valid, named);
    }
    body = fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: valid.chain(mutated) }).map((value) => ({ kind: 'json' as const, value }));
  } else if (content['multipart/form-data']) {
    body = fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'multipart' as const, bytes }));
  }
  return fc.record({ path, query, body });
}

async function send(method: string, sent: Sent): Promise<{ status: number; type: string; text: string }> {
  const headers: Record<string, string> = { ...auth };
  let body: string | FormData | undefined;
  if (sent.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(sent.body.value);
  } else if (sent.body.kind === 'multipart') {
    const form = new FormData();
    form.append('file', new Blob([sent.body.bytes]), 'fuzz.zip');
    body = form;
  }
  const url = `${live.url}${sent.path}${sent.query === '' ? '' : `?${sent.query}`}`;
  const res = await fetch(url, { method: method.toUpperCase(), headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  figures.requests += 1;
  figures.statuses.set(res.status, (figures.statuses.get(res.status) ?? 0) + 1);
  return { status: res.status, type: (res.headers.get('content-type') ?? '').split(';')[0]!.trim(), text };
}

describe('every operation answers as its OpenAPI document says', () => {
  it('holds for generated requests to every operation (no 5xx, listed statuses, documented bodies)', async () => {
    const compile = validators();
    // Destructive operations last, so the fixtures serve every other operation first.
    const order = (method: string) => (method === 'delete' ? 1 : 0);
    const operations = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))
      .sort((a, b) => order(a.method) - order(b.method));
    for (const { path, method, op } of operations) {
      figures.operations += 1;
      const requestSchema = op.requestBody?.content['application/json']?.schema;
      const requestValid = requestSchema ? compile(requestSchema) : undefined;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(path, op), async (sent) => {
          const answer = await send(method, sent);
          const where = `${method.toUpperCase()} ${sent.path}?${sent.query} → ${answer.status} ${answer.text.slice(0, 300)}`;
          expect(answer.status, where).toBeLessThan(500);
          const documented = op.responses[String(answer.status)];
          expect(documented, `status not listed: ${where}`).toBeDefined();
          if (answer.text !== '') {
            const media = documented!.content ?? {};
            expect(Object.keys(media), `media type not listed: ${answer.type} ${where}`).toContain(answer.type);
            const schema = media[answer.type]?.schema;
            if (schema !== undefined && answer.type.endsWith('json')) {
              const validate = compile(schema);
              expect(validate(JSON.parse(answer.text)), `${where}\n${JSON.stringify(validate.errors)}`).toBe(true);
            }
          }
          if (SCHEMA_IS_THE_WHOLE_400.has(op.operationId) && answer.status === 400) {
            const bodyValid = sent.body.kind !== 'json' || requestValid === undefined || requestValid(sent.body.value);
            expect(!bodyValid || refusedBeyondSchema(sent, answer.text), `schema-valid request refused: ${where}`).toBe(true);
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    expect(figures.operations).toBe(operations.length);
  }, 300_000);
});
