// Ids that cannot exist (issue 22): a NUL byte (PostgreSQL text cannot hold one), text over the storage
// port's key bound, kilobytes of path. Every route of the OpenAPI document with a path id is asked for
// each, beside an ordinary unknown id, on the suite's provider (the postgres project runs this file on
// PostgreSQL): the answers must be byte-identical but for `instance` and `traceId`, and no request may
// write an error-level log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log/index.js';
import { captureLog } from '../helpers/log-capture.js';
import { startLiveService, type LiveService } from '../helpers/live-service.js';
import { withoutIdEcho } from '../helpers/problem-body.js';
import { TEST_STORAGE } from '../helpers/test-storage.js';

interface Operation {
  readonly operationId: string;
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>;
}

const log = captureLog();
let live: LiveService;
let auth: Record<string, string>;
let operations: Array<{ method: string; path: string; op: Operation }>;
let asked = 0;

/** The smallest body each operation accepts, so its answer is about the id and not the body. */
const BODIES: Readonly<Record<string, unknown>> = {
  startBundleRun: { userMessages: ['hello'] },
  runBundleAgui: { threadId: 'thread-1', runId: 'run-1', messages: [{ id: 'm1', role: 'user', content: 'hello' }] },
  invokeTool: { operation: 'now', parameters: {} },
  decideApproval: { decision: 'Approve' },
  decideApprovalById: { decision: 'Approve' },
  updateSchedule: { name: 'renamed' },
};

/**
 * Operations whose path id is the name of what they create (PUT of an own eval dataset, and adding a
 * case to one, which creates it when missing): no id is unknown to them, and a name that cannot be one
 * is their 400 (evals-datasets-mine.test.ts, evals-run-to-case.test.ts).
 */
const NAMES_WHAT_IT_CREATES: ReadonlySet<string> = new Set(['putMyEvalDataset', 'addMyEvalDatasetCase']);

const UNKNOWN = 'f3b9c2d4-5e6f-4a1b-8c7d-9e0f1a2b3c4d';
const CANNOT_EXIST: ReadonlyArray<readonly [string, string]> = [
  ['a NUL byte inside', 'a\u0000b'],
  ['only a NUL byte', '\u0000'],
  ['a NUL byte after a real-looking id', `${UNKNOWN}\u0000`],
  ['600 bytes of two-byte characters', '\u00e9'.repeat(300)],
  ['5,000 characters', 'x'.repeat(5_000)],
];
/** Escapes no decoder turns into text (sent as typed): not UTF-8, cut short, not hex, a lone surrogate, overlong. */
const UNDECODABLE: readonly string[] = ['%FF', 'a%C3', '%ZZ', '%', 'ab%2', '%ED%A0%80', '%C0%AF', `${UNKNOWN}%FF`];

beforeAll(async () => {
  live = await startLiveService({}, { logger: createLogger({ level: 'info', destination: log.destination }) });
  auth = { authorization: `Bearer ${await live.token('unknown-ids')}` };
  const doc = (await (await fetch(`${live.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => (op.parameters ?? []).some((p) => p.in === 'path') && !NAMES_WHAT_IT_CREATES.has(op.operationId))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}, 30_000);
afterAll(async () => live.close());

async function ask(method: string, template: string, operationId: string, id: string, param: string, options: { raw?: boolean; anonymous?: boolean } = {}) {
  const url = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === param && options.raw === true ? id : encodeURIComponent(name === param ? id : name === 'name' ? 'no-such-tool' : UNKNOWN),
  );
  const body = BODIES[operationId];
  asked += 1;
  const res = await live.app.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(options.anonymous === true ? {} : auth), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const { 'x-request-id': _id, date: _date, 'content-length': _length, ...headers } = res.headers;
  return { status: res.statusCode, headers, body: res.body, json: <T>() => res.json<T>() };
}

describe(`ids that cannot exist, on ${TEST_STORAGE}`, () => {
  it('covers every operation of the document with a path id', () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
  });

  it('answers each exactly as an ordinary unknown id (only instance and traceId differ), in every path position', async () => {
    for (const { method, path, op } of operations) {
      for (const param of (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)) {
        const ordinary = await ask(method, path, op.operationId, param === 'name' ? 'no-such-tool' : UNKNOWN, param);
        const where = `${method} ${path} {${param}}`;
        // The unknown answer itself: 404, or 204 where deleting is non-disclosing (DELETE /api/bundles/{handle}).
        expect([404, 204], `${where} → ${ordinary.status} ${ordinary.body}`).toContain(ordinary.status);
        for (const [title, id] of CANNOT_EXIST) {
          const hostile = await ask(method, path, op.operationId, id, param);
          const what = `${where} with ${title}`;
          expect(hostile.status, `${what} → ${hostile.body.slice(0, 300)}`).toBe(ordinary.status);
          expect(hostile.headers, what).toEqual(ordinary.headers);
          if (ordinary.body !== '') {
            expect(withoutIdEcho(hostile.body), what).toBe(withoutIdEcho(ordinary.body));
            expect(hostile.body.length, what).toBeLessThan(ordinary.body.length + 300);
          } else expect(hostile.body, what).toBe('');
        }
      }
    }
  }, 60_000);

  it('answers an id whose escapes do not decode as an unknown id: 404 after authentication, 401 without a token', async () => {
    for (const { method, path, op } of operations) {
      for (const param of (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)) {
        for (const anonymous of [false, true]) {
          const ordinary = await ask(method, path, op.operationId, param === 'name' ? 'no-such-tool' : UNKNOWN, param, { anonymous });
          const where = `${method} ${path} {${param}}${anonymous ? ' without a token' : ''}`;
          expect(anonymous ? [401] : [404, 204], `${where} → ${ordinary.status}`).toContain(ordinary.status);
          for (const id of UNDECODABLE) {
            const hostile = await ask(method, path, op.operationId, id, param, { raw: true, anonymous });
            const what = `${where} with ${id}`;
            expect(hostile.status, `${what} → ${hostile.body.slice(0, 300)}`).toBe(ordinary.status);
            expect(hostile.headers, what).toEqual(ordinary.headers);
            if (ordinary.body === '') expect(hostile.body, what).toBe('');
            else {
              expect(withoutIdEcho(hostile.body), what).toBe(withoutIdEcho(ordinary.body));
              // The instance is the path as sent, not as the router was handed it.
              expect(hostile.json<{ instance: string }>().instance, what).toContain(id);
            }
          }
        }
      }
    }
  }, 60_000);

  it('filters a list by a workflow id that cannot exist as by an unknown one: an empty page', async () => {
    for (const [, id] of CANNOT_EXIST.filter(([, id]) => id.length <= 100)) {
      const res = await live.app.app.inject({ method: 'GET', url: `/api/workflows/runs?workflowId=${encodeURIComponent(id)}`, headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ runs: [], nextCursor: null });
    }
  });

  it('logged each as a request of its route, and none at error level', () => {
    const lines = log.lines.map((line) => JSON.parse(line) as { level: number; msg: string; route?: string | null });
    const routed = lines.filter((line) => line.msg === 'request completed' && line.route?.includes('/:') === true);
    expect(routed.length).toBeGreaterThanOrEqual(asked);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
