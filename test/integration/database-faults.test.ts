// DESIGN §11 and §17 with a real process on a PostgreSQL server of this file's own (the suite's shared
// server is never stopped or frozen): while the database is unreachable for 10 s — STOPPED (connections
// refused) or FROZEN (SIGSTOP of the postmaster and its children: connections hang) — under an open
// workflow progress stream, the instance stays up (/healthz 200 throughout, the process never exits,
// nothing "unhandled" on its stderr), /readyz answers 503 naming `storage` within 1 s, the stream ends
// with a caller-safe frame or close (or resumes), and the run whose model call was held during the
// outage finishes Succeeded once the database is back, without restarting the instance; so does an
// author's eval run (own dataset, bundle subject, replay) whose case was judged during the outage.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '../helpers/embedded-postgres-server.js';
import {
  HoldingModel,
  api,
  chain,
  Cluster,
  eventually,
  FINAL,
  isStatus,
  openStream,
  register,
  sleep,
  startWorkflow,
  submit,
  type Instance,
  type StreamReading,
} from '../helpers/serve-cluster.js';

const LEASE_SECONDS = 3;
const OUTAGE_MS = 10_000;
const READY_WITHIN_MS = 1_000;
const PROBE_EVERY_MS = 50;
/** Frame types a workflow progress stream may carry (DESIGN §6), and the shutdown frame (§1). */
const FRAME_TYPES = ['SNAPSHOT', 'STEP', 'FINISHED', 'PARKED', 'GAP', 'RUN_ERROR'];
/** Text that must never reach a caller: driver, SQL and internal error names. */
const LEAKS = /ECONN|ETIMEDOUT|postgres|pg_|sql|select |StorageUnavailable|storage is unavailable|\bat [\w.]+ \(|connection terminated|timeout exceeded/i;

let database: EmbeddedPostgresServer;
let model: HoldingModel;
const clusters: Cluster[] = [];

beforeAll(async () => {
  [database, model] = await Promise.all([startEmbeddedPostgres(), new HoldingModel().start()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.killAll()));
  await model?.close();
  await database?.destroy(); // thaws it first
});

interface Probe {
  readonly path: string;
  /** When it was sent (epoch ms). */
  readonly startedAt: number;
  readonly ms: number;
  /** The HTTP status, or why there was none (`timeout`, or the network error's code). */
  readonly status: number | string;
  readonly failing?: unknown;
}

/** Probes `path` every PROBE_EVERY_MS (one at a time) until `stop` aborts; each probe timed. */
async function probeLoop(instance: Instance, path: string, stop: AbortSignal, probes: Probe[]): Promise<void> {
  while (!stop.aborted) {
    const started = Date.now();
    let status: Probe['status'];
    let failing: unknown;
    try {
      const res = await fetch(`${instance.url}${path}`, { signal: AbortSignal.timeout(6_000) });
      const body = (await res.json().catch(() => null)) as { failing?: unknown } | null;
      status = res.status;
      failing = body?.failing;
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string } }).cause;
      status = (error as Error).name === 'TimeoutError' ? 'timeout' : `network error ${cause?.code ?? String(cause ?? error)}`;
    }
    const ended = Date.now();
    probes.push({ path, startedAt: started, ms: ended - started, status, ...(failing === undefined ? {} : { failing }) });
    await sleep(Math.max(0, PROBE_EVERY_MS - (ended - started)));
  }
}

/** A probe with its start relative to the outage's (negative: before). */
type TimedProbe = Probe & { readonly at: number };
const describeProbe = (p: TimedProbe): string => `${p.path} sent ${(p.at / 1000).toFixed(2)} s into the outage: ${String(p.status)} in ${p.ms} ms`;

/** The start of what a process wrote to stderr that is not a JSON log line (a crash's message and first frames). */
function crashHead(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => !line.startsWith('{'));
  return lines.join('\n').slice(0, 900);
}

/** Re-attaches with Last-Event-ID when the stream ended before FINISHED; all frames seen. */
async function finishStream(instance: Instance, url: string, first: StreamReading): Promise<StreamReading[]> {
  const readings = [first];
  const finished = (): boolean => readings.some((r) => r.frames.some((f) => f.data.type === 'FINISHED'));
  for (let attempt = 0; attempt < 3 && !finished() && first.ended !== 'error'; attempt += 1) {
    const lastId = readings.flatMap((r) => r.frames).filter((f) => f.id !== undefined).at(-1)?.id;
    const next = await openStream(`${instance.url}${url}/stream`, lastId === undefined ? {} : { 'last-event-id': lastId });
    await Promise.race([next.done, sleep(15_000)]);
    readings.push(next);
  }
  return readings;
}

describe.each([
  { fault: 'STOPPED', begin: () => database.stop(), end: () => database.start() },
  { fault: 'FROZEN (SIGSTOP)', begin: () => database.freeze(), end: () => database.thaw() },
])('the database $fault for 10 s', ({ fault, begin, end }) => {
  it(`keeps the instance up, answers /readyz 503 within 1 s, ends or resumes an open workflow stream safely, and finishes the workflow run and an author’s eval run held during the outage once the database is back (${fault})`, async () => {
    const cluster = new Cluster({ database: { connectionString: database.url, schema: `faults_${randomBytes(5).toString('hex')}` }, model, leaseSeconds: LEASE_SECONDS });
    clusters.push(cluster);
    const instance = await cluster.serve('db');
    const marker = `outage-${randomBytes(4).toString('hex')}`;
    const workflowId = await submit(instance.url, chain('outage', ['think', `[${marker}] HOLD:${marker}`], ['after', `[${marker}-after]`]));
    const statusUrl = await startWorkflow(instance.url, workflowId);
    await eventually(async () => model.asked(`[${marker}]`), (n) => n === 1);
    // An author's eval run (DESIGN §19: own dataset, bundle subject, replay) with a case at the model
    // when the outage begins; its answer arrives in the middle of the outage.
    const handle = await register(instance.url);
    const own = await api(instance.url, 'PUT', '/api/evals/datasets/mine/outage', {
      cases: [
        { id: 'before', input: `[${marker}-own-before]`, assert: [{ type: 'contains', value: 'echo' }] },
        { id: 'recorded', input: `[${marker}-own-recorded]`, recording: { steps: [{ model: { text: 'echo recorded', toolCalls: [] } }] } },
        { id: 'held', input: `[${marker}-own-held] HOLD:${marker}-own`, assert: [{ type: 'contains', value: 'echo' }] },
        { id: 'after', input: `[${marker}-own-after]`, assert: [{ type: 'contains', value: 'echo' }] },
      ],
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const evalRun = await api(instance.url, 'POST', '/api/evals/runs', { datasets: ['mine/outage'], subject: { handle }, replay: 'all', parallelism: 1 });
    expect(evalRun.status, JSON.stringify(evalRun.body)).toBe(202);
    const evalUrl = `/api/evals/runs/${evalRun.body.jobId as string}`;
    await eventually(async () => model.asked(`[${marker}-own-held]`), (n) => n === 1);
    const stream = await openStream(`${instance.url}${statusUrl}/stream`);
    expect(stream.status).toBe(200);
    await eventually(async () => stream.frames.length, (n) => n >= 1); // the SNAPSHOT is out

    const sent: Probe[] = [];
    const stopProbing = new AbortController();
    const loops = [probeLoop(instance, '/healthz', stopProbing.signal, sent), probeLoop(instance, '/readyz', stopProbing.signal, sent)];
    await sleep(300); // a few probes while the database is up
    await begin();
    const outageStart = Date.now();
    await sleep(OUTAGE_MS / 2); // the outage itself is what this test is about
    model.release(`${marker}-own`); // the eval case is judged while its checkpoint cannot be written
    await sleep(OUTAGE_MS / 2);
    const outageMs = Date.now() - outageStart;
    await end();
    const exitedDuringOutage = !instance.alive();

    // Back: ready again (without a restart), then the held model answer arrives.
    const readyAgain = exitedDuringOutage
      ? undefined
      : await eventually(() => api(instance.url, 'GET', '/readyz'), (res) => res.status === 200, 20_000).catch((error: unknown) => error);
    stopProbing.abort();
    await Promise.all(loops);
    model.release(marker);
    const probes: TimedProbe[] = sent.map((p) => ({ ...p, at: p.startedAt - outageStart }));

    // 1. The process stayed up: it never exited, and /healthz answered 200 every time.
    expect.soft(exitedDuringOutage ? `exited with ${String(await instance.exited)}` : 'running', `the instance during the outage; stderr:\n${crashHead(instance.stderr())}`).toBe('running');
    const during = probes.filter((p) => p.at >= 0 && p.at < outageMs);
    const health = probes.filter((p) => p.path === '/healthz');
    expect.soft(health.filter((p) => p.status !== 200).map(describeProbe).slice(0, 5), '/healthz probes that did not answer 200').toEqual([]);
    // 2. /readyz: every probe answered within 1 s; each made while the database was unreachable (and
    // finishing before it came back) said 503 naming storage.
    const ready = probes.filter((p) => p.path === '/readyz');
    expect.soft(during.filter((p) => p.path === '/readyz').length, '/readyz probes sent during the outage').toBeGreaterThanOrEqual(1);
    expect.soft(ready.filter((p) => p.ms >= READY_WITHIN_MS).map(describeProbe).slice(0, 5), '/readyz probes slower than 1 s').toEqual([]);
    expect
      .soft(
        during
          .filter((p) => p.path === '/readyz' && p.at + p.ms < outageMs && !(p.status === 503 && Array.isArray(p.failing) && p.failing.includes('storage')))
          .map((p) => `${describeProbe(p)} failing=${JSON.stringify(p.failing)}`)
          .slice(0, 5),
        '/readyz probes during the outage that were not a 503 naming storage',
      )
      .toEqual([]);
    expect.soft(/unhandled/i.exec(instance.stderr())?.[0] ?? null, `"unhandled" on the instance's stderr:\n${crashHead(instance.stderr())}`).toBeNull();
    if (exitedDuringOutage) return; // nothing more to observe of a process that is gone (already failed above)
    expect(readyAgain, '/readyz once the database is back').toMatchObject({ status: 200 });

    // 3. The stream ended with a caller-safe frame or close, or resumed; either way FINISHED reaches
    // the caller (re-attaching with Last-Event-ID when it had ended).
    await Promise.race([stream.done, sleep(20_000)]);
    const readings = await finishStream(instance, statusUrl, stream);
    const frames = readings.flatMap((r) => r.frames);
    expect.soft(readings.map((r) => r.ended), 'how each stream attempt ended (error: the connection broke)').not.toContain('error');
    expect.soft(readings.flatMap((r) => r.unparsed), 'stream payloads that were not JSON').toEqual([]);
    expect.soft(frames.map((f) => f.data.type).filter((type) => !FRAME_TYPES.includes(type)), 'unknown frame types').toEqual([]);
    expect.soft(frames.map((f) => JSON.stringify(f.data)).filter((text) => LEAKS.test(text)), 'frames carrying internal error text').toEqual([]);
    expect.soft(frames.filter((f) => f.data.type === 'FINISHED').map((f) => f.data.status), 'FINISHED frames').toEqual(['Succeeded']);

    // 4. The run goes on, on the same instance, and succeeds.
    const done = await eventually(() => api(instance.url, 'GET', statusUrl), isStatus(...FINAL), 20_000);
    expect(done.body.status).toBe('Succeeded');
    expect(done.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
    // 5. The author's eval run finishes on the same instance with every case passed; the recorded case
    // never asked the model, the others once each or, the held one, at most twice (at-least-once).
    const evaluated = await eventually(() => api(instance.url, 'GET', evalUrl), isStatus(...FINAL), 20_000);
    expect(evaluated.body.status, JSON.stringify(evaluated.body)).toBe('Succeeded');
    expect(evaluated.body.counts).toEqual({ total: 4, passed: 4, failed: 0, warned: 0, errored: 0 });
    expect([`[${marker}-own-before]`, `[${marker}-own-recorded]`, `[${marker}-own-after]`].map((m) => model.asked(m))).toEqual([1, 0, 1]);
    expect(model.asked(`[${marker}-own-held]`)).toBeLessThanOrEqual(2);
    expect(instance.alive(), 'the same instance served throughout').toBe(true);
    expect(/unhandled/i.exec(instance.stderr())?.[0] ?? null, 'stderr after recovery').toBeNull();
    expect(await cluster.sigterm(instance), 'exit code of SIGTERM after the outage').toBe(0);
  }, 90_000);
});
