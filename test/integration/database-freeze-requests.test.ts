// DESIGN §11 and §17, decision 3511, with a real `portcullis serve` on a PostgreSQL server of this
// file's own (the suite's shared server is never frozen): while the database is FROZEN (SIGSTOP of the
// postmaster and its children: connections are accepted, nothing answers), one request of every route
// family that needs the database answers `503 Service unavailable` with `Retry-After` and no driver
// text, within the storage's bounds (a connection within 5 s, a statement within 5 s) plus a margin
// for a busy machine, instead of hanging for as long as the freeze; `/readyz` answers 503 naming
// `storage` within its bound. After SIGCONT the same requests succeed, and a workflow run whose model
// answer arrived during the freeze (so its checkpoint met the frozen database) finishes Succeeded on
// the same instance.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '../helpers/embedded-postgres-server.js';
import { HoldingModel, api, chain, Cluster, eventually, FINAL, isStatus, register, startWorkflow, submit } from '../helpers/serve-cluster.js';

/** The storage's bound on one use (a connection, then a statement: decision 3511). */
const BOUND_MS = 10_000;
/** What a request may take while the database is frozen: the bound and a margin for a loaded 2-core machine. */
const ANSWER_WITHIN_MS = BOUND_MS + 10_000;
/** `/readyz` answers within 1 s (§17); the margin is for a busy machine. */
const READY_WITHIN_MS = 2_000;
/** Text that must never reach a caller: driver, SQL and internal error names. */
const LEAKS = /ECONN|ETIMEDOUT|postgres|pg_|sql|select |StorageUnavailable|storage is unavailable|\bat [\w.]+ \(|connection terminated|timeout exceeded|read timeout/i;

let database: EmbeddedPostgresServer;
let model: HoldingModel;
let cluster: Cluster;

beforeAll(async () => {
  [database, model] = await Promise.all([startEmbeddedPostgres(), new HoldingModel().start()]);
}, 60_000);
// A failing assertion must never leave the database frozen for what follows.
afterEach(async () => database?.thaw());
afterAll(async () => {
  await cluster?.killAll();
  await model?.close();
  await database?.destroy(); // thaws it first
});

interface Probe {
  readonly family: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** The status it answers once the database is back. */
  readonly ok: number;
}

interface Answered {
  readonly probe: Probe;
  readonly ms: number;
  /** The HTTP status, or why there was none. */
  readonly status: number | string;
  readonly retryAfter: string | null;
  readonly contentType: string | null;
  readonly text: string;
}

async function send(base: string, probe: Probe, timeoutMs: number): Promise<Answered> {
  const started = Date.now();
  try {
    const res = await fetch(`${base}${probe.path}`, {
      method: probe.method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { ...(probe.body === undefined ? {} : { 'content-type': 'application/json' }), ...probe.headers },
      ...(probe.body === undefined ? {} : { body: JSON.stringify(probe.body) }),
    });
    const text = await res.text();
    return { probe, ms: Date.now() - started, status: res.status, retryAfter: res.headers.get('retry-after'), contentType: res.headers.get('content-type'), text };
  } catch (error) {
    const status = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `network error ${String((error as Error).cause ?? error)}`;
    return { probe, ms: Date.now() - started, status, retryAfter: null, contentType: null, text: '' };
  }
}

const describeAnswer = (a: Answered): string => `${a.probe.family}: ${a.probe.method} ${a.probe.path} → ${String(a.status)} in ${a.ms} ms ${a.text.slice(0, 160)}`;

describe('the database frozen (SIGSTOP) under requests', () => {
  it('answers every request that needs it 503 with Retry-After within the bound, /readyz within 1 s, and serves them again after SIGCONT while a run in progress finishes', async () => {
    const schema = `freeze_${randomBytes(5).toString('hex')}`;
    cluster = new Cluster({ database: { connectionString: database.url, schema }, model, leaseSeconds: 3 });
    await cluster.dataset('freeze', ['one']);
    const instance = await cluster.serve('db', {
      AppConfig__AI__DirectToolInvocation__Enabled: 'true',
      AppConfig__AI__BundleExecution__Envelopes__Default__AllowedTools__1: 'memory',
    });
    const base = instance.url;

    // Before the freeze: a bundle, workflows, a run held at its model call, a run Blocked at a gate.
    const marker = `freeze-${randomBytes(4).toString('hex')}`;
    const handle = await register(base);
    const heldId = await submit(base, chain('held', ['think', `[${marker}] HOLD:${marker}`], ['after', `[${marker}-after]`]));
    const quickId = await submit(base, chain('quick', ['only', 'quick step']));
    const gatedId = await submit(base, chain('gated', ['gate', 'GATE']));
    const heldUrl = await startWorkflow(base, heldId);
    await eventually(async () => model.asked(`[${marker}]`), (n) => n === 1);
    const gatedUrl = await startWorkflow(base, gatedId);
    const blocked = await eventually(() => api(base, 'GET', gatedUrl), (a) => a.body?.status === 'Blocked' && a.body.pendingApprovals?.length === 1);
    const approvalId = blocked.body.pendingApprovals[0].approvalId as string;
    const key = `freeze-${randomBytes(4).toString('hex')}`;

    const probes: Probe[] = [
      { family: 'bundles', method: 'GET', path: '/api/bundles', ok: 200 },
      { family: 'bundles', method: 'GET', path: `/api/bundles/${handle}/runs`, ok: 200 },
      { family: 'bundle runs', method: 'POST', path: `/api/bundles/${handle}/runs`, body: { userMessages: ['hello'] }, ok: 202 },
      { family: 'workflows', method: 'GET', path: `/api/workflows/${quickId}`, ok: 200 },
      { family: 'workflows (idempotent POST)', method: 'POST', path: '/api/workflows', body: chain('keyed', ['one', 'hi']), headers: { 'idempotency-key': key }, ok: 201 },
      { family: 'workflow runs', method: 'GET', path: '/api/workflows/runs', ok: 200 },
      { family: 'workflow runs', method: 'GET', path: heldUrl, ok: 200 },
      { family: 'workflow runs', method: 'POST', path: `/api/workflows/${quickId}/runs`, ok: 202 },
      { family: 'evals', method: 'GET', path: '/api/evals/runs', ok: 200 },
      { family: 'evals', method: 'POST', path: '/api/evals/runs', body: { datasets: ['freeze'] }, ok: 202 },
      { family: 'tools (direct invocation)', method: 'POST', path: '/api/tools/clock/invoke', body: { operation: 'now', parameters: {} }, ok: 200 },
      { family: 'tools (memory)', method: 'POST', path: '/api/tools/memory/invoke', body: { operation: 'set', parameters: { key: 'colour', value: 'blue' } }, ok: 200 },
      { family: 'approvals', method: 'GET', path: '/api/approvals', ok: 200 },
      { family: 'approvals', method: 'POST', path: `${gatedUrl}/approvals/${approvalId}`, body: { decision: 'Approve' }, ok: 200 },
      { family: 'webhooks', method: 'GET', path: '/api/webhooks', ok: 200 },
      { family: 'schedules', method: 'GET', path: '/api/schedules', ok: 200 },
      { family: 'schedules', method: 'POST', path: '/api/schedules', body: { name: 'yearly', cron: '0 0 1 1 *', target: { workflow: { workflowId: quickId } } }, ok: 201 },
      { family: 'spend', method: 'GET', path: '/api/spend', ok: 200 },
    ];

    await database.freeze();
    let during: Answered[];
    let ready: Answered[];
    try {
      model.release(marker); // the held run's answer arrives now: its checkpoint meets the frozen database
      const readyz: Probe = { family: 'readiness', method: 'GET', path: '/readyz', ok: 200 };
      const readiness = (async () => {
        const seen: Answered[] = [];
        for (let i = 0; i < 3; i += 1) seen.push(await send(base, readyz, 10_000));
        return seen;
      })();
      [during, ready] = await Promise.all([Promise.all(probes.map((probe) => send(base, probe, ANSWER_WITHIN_MS))), readiness]);
    } finally {
      await database.thaw();
    }

    // During the freeze: every request answered, 503 with Retry-After, a problem document without driver text.
    expect.soft(during.filter((a) => a.status !== 503).map(describeAnswer), 'requests not answered 503 during the freeze').toEqual([]);
    expect.soft(during.filter((a) => !/^[1-9]\d*$/.test(a.retryAfter ?? '')).map(describeAnswer), '503s without Retry-After seconds').toEqual([]);
    expect.soft(during.filter((a) => a.status === 503 && !a.contentType?.includes('application/problem+json')).map(describeAnswer), '503s not problem documents').toEqual([]);
    expect.soft(during.filter((a) => a.status === 503 && JSON.parse(a.text).title !== 'Service unavailable').map(describeAnswer), '503s with another title').toEqual([]);
    expect.soft(during.filter((a) => LEAKS.test(a.text)).map(describeAnswer), 'answers carrying internal error text').toEqual([]);
    expect.soft(ready.filter((a) => a.status !== 503 || a.ms >= READY_WITHIN_MS || !a.text.includes('storage')).map(describeAnswer), '/readyz during the freeze').toEqual([]);
    expect(instance.alive(), 'the instance during the freeze').toBe(true);

    // After SIGCONT: ready again without a restart; the same requests succeed.
    await eventually(() => api(base, 'GET', '/readyz'), (res) => res.status === 200, 30_000);
    const after = await Promise.all(probes.map((probe) => send(base, probe, 30_000)));
    expect.soft(after.filter((a) => a.status !== a.probe.ok).map(describeAnswer), 'requests that did not succeed after SIGCONT').toEqual([]);

    // The run in progress during the freeze goes on and succeeds, on the same instance.
    const done = await eventually(() => api(base, 'GET', heldUrl), isStatus(...FINAL), 30_000);
    expect(done.body.status).toBe('Succeeded');
    expect(done.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
    expect(instance.alive(), 'the same instance served throughout').toBe(true);
    expect(/unhandled/i.exec(instance.stderr())?.[0] ?? null, 'stderr').toBeNull();
  }, 150_000);
});
