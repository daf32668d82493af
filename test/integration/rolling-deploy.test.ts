// DESIGN §1 and §11 under load: a rolling deploy of two `portcullis serve` instances on one PostgreSQL
// schema (A and B; SIGTERM A, start A', SIGTERM B, start B') while clients keep a steady stream of work
// going through whichever instances are live, as a load balancer routes it (an instance is taken out of
// the rotation, and its in-flight requests drained, before it is stopped): workflow runs with a
// HumanGate (approved as they park), bundle conversations (background runs, polled), eval runs, and
// polls and lists of all of them. Afterwards: every workflow and eval run ended Succeeded (none Failed,
// Cancelled or lost), every eval case passed, no step, case or turn asked the model twice (model answers
// take 200 ms, far inside the 5 s shutdown grace, so nothing is still in flight when the grace ends),
// every answer a client saw was documented (no network error from a live instance, no 5xx but a 503
// problem), each stopped instance exited 0, and a bundle run whose model request was held past the
// whole shutdown ended Failed with "The host executing this run stopped." (never "The run was cancelled.").
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, type FreshPostgres } from '../helpers/postgres.js';
import {
  HoldingModel,
  api,
  askedBy,
  chain,
  Cluster,
  crashLines,
  eventually,
  FINAL,
  isStatus,
  lastUser,
  register,
  sleep,
  type Answer,
  type Instance,
} from '../helpers/serve-cluster.js';

const LEASE_SECONDS = 3;
const TAKEOVER_BOUND_MS = (LEASE_SECONDS + 5) * 1_000;
const HOST_STOPPED = 'The host executing this run stopped.';
/** Every model answer of the load takes this long: quick, but long enough that work is in flight at a SIGTERM. */
const ANSWER_MS = 200;
const POLL_MS = 50;
/** How long the load's runs may take to settle once the deploy is over. */
const SETTLE_MS = 45_000;

let model: HoldingModel;
let database: FreshPostgres;
let cluster: Cluster;

beforeAll(async () => {
  model = await new HoldingModel().start();
  database = freshPostgres('rolling');
  cluster = new Cluster({ database, model, leaseSeconds: LEASE_SECONDS });
});
afterAll(async () => {
  await cluster?.killAll();
  await model?.close();
  await database?.drop();
});

interface Call {
  readonly via: string;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly title?: string;
  readonly error?: string;
}

/** The load balancer: round-robin over the live instances, every call recorded. */
class Router {
  readonly calls: Call[] = [];
  #live: Instance[] = [];
  #next = 0;
  readonly #inflight = new Map<Instance, number>();

  add(instance: Instance): void {
    this.#live.push(instance);
  }

  /** Takes an instance out of the rotation, then waits for its in-flight requests to finish. */
  async drain(instance: Instance): Promise<void> {
    this.#live = this.#live.filter((live) => live !== instance);
    await eventually(async () => this.#inflight.get(instance) ?? 0, (n) => n === 0, 15_000, 10);
  }

  /** One request through the next live instance; retried on another after a network error, as a client would. */
  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    for (let attempt = 0; ; attempt += 1) {
      const instance = this.#live[this.#next++ % this.#live.length]!;
      this.#inflight.set(instance, (this.#inflight.get(instance) ?? 0) + 1);
      try {
        const answer = await api(instance.url, method, path, body, 15_000);
        const title = typeof answer.body?.title === 'string' ? (answer.body.title as string) : undefined;
        this.calls.push({ via: instance.name, method, path, status: answer.status, ...(title === undefined ? {} : { title }) });
        return answer;
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
        this.calls.push({ via: instance.name, method, path, error: `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}` });
        if (attempt >= 5) throw error;
        await sleep(POLL_MS);
      } finally {
        this.#inflight.set(instance, this.#inflight.get(instance)! - 1);
      }
    }
  }
}

/** An answer outside the documented ones for this call, described; undefined when documented. */
function undocumented(call: Call): string | undefined {
  const what = `${call.method} ${call.path} via ${call.via}`;
  if (call.error !== undefined) return `${what}: ${call.error}`;
  const status = call.status!;
  if (status >= 200 && status < 300) return undefined;
  if (status === 503 && call.title === 'Service unavailable') return undefined;
  // Approving an approval already decided or withdrawn is a documented 409 (the approver races the run).
  if (status === 409 && call.method === 'POST' && call.path.includes('/approvals/')) return undefined;
  return `${what}: ${status} ${call.title ?? ''}`.trim();
}

interface Tracked {
  readonly kind: 'workflow' | 'eval' | 'bundle';
  readonly label: string;
  /** Model prompt markers this run must ask exactly once. */
  readonly markers: string[];
  final?: Answer['body'];
}

describe('a rolling deploy of two instances under steady traffic (PostgreSQL)', () => {
  it('loses, fails, cancels or repeats no workflow or eval run, answers every client with a documented answer, and ends a bundle run still running when the grace ended Failed as its host stopped', async () => {
    const router = new Router();
    const tracked: Tracked[] = [];
    let loadStopped = false;
    const settleBy = (): number => Date.now() + SETTLE_MS;
    const suffix = randomBytes(3).toString('hex');

    /** Polls a run's status URL through the router until it is final. */
    const settle = async (run: Tracked, url: string, onPoll?: (body: Answer['body']) => Promise<void>): Promise<void> => {
      let deadline = Number.POSITIVE_INFINITY;
      for (;;) {
        const answer = await router.call('GET', url);
        if (answer.status === 200 && FINAL.includes(answer.body.status as string)) {
          run.final = answer.body;
          return;
        }
        if (answer.status === 200) await onPoll?.(answer.body);
        if (loadStopped && deadline === Number.POSITIVE_INFINITY) deadline = settleBy();
        if (Date.now() > deadline) return; // left unfinished: reported below as lost
        await sleep(POLL_MS);
      }
    };

    const workflowLoad = async (worker: number): Promise<void> => {
      for (let n = 0; !loadStopped; n += 1) {
        const label = `wf-${worker}-${n}`;
        const definition = chain(label, ['s1', `[${label}-s1] SLOW:${ANSWER_MS}`], ['gate', 'GATE'], ['s2', `[${label}-s2] SLOW:${ANSWER_MS}`]);
        const created = await router.call('POST', '/api/workflows', definition);
        const started = created.status === 201 ? await router.call('POST', `/api/workflows/${created.body.id as string}/runs`) : created;
        if (started.status !== 202) {
          await sleep(POLL_MS); // recorded as undocumented unless a 503
          continue;
        }
        const run: Tracked = { kind: 'workflow', label, markers: [`[${label}-s1]`, `[${label}-s2]`] };
        tracked.push(run);
        const statusUrl = started.body.statusUrl as string;
        await settle(run, statusUrl, async (body) => {
          for (const pending of (body.pendingApprovals ?? []) as Array<{ approvalId: string }>) {
            await router.call('POST', `${statusUrl}/approvals/${pending.approvalId}`, { decision: 'Approve' });
          }
        });
      }
    };

    const evalLoad = async (): Promise<void> => {
      for (let n = 0; !loadStopped; n += 1) {
        const label = `ev-${suffix}-${n}`;
        const markers = [1, 2, 3].map((c) => `[${label}-c${c}]`);
        await cluster.dataset(label, markers.map((marker) => `${marker} SLOW:${ANSWER_MS}`));
        const started = await router.call('POST', '/api/evals/runs', { datasets: [label], parallelism: 3 });
        if (started.status !== 202) {
          await sleep(POLL_MS);
          continue;
        }
        const run: Tracked = { kind: 'eval', label, markers };
        tracked.push(run);
        await settle(run, started.body.statusUrl as string);
      }
    };

    const bundleLoad = async (handle: string): Promise<void> => {
      for (let n = 0; !loadStopped; n += 1) {
        for (const turn of [1, 2]) {
          const label = `bun-${n}-t${turn}`;
          const started = await router.call('POST', `/api/bundles/${handle}/runs`, { userMessages: [`[${label}] SLOW:${ANSWER_MS}`], conversationId: `conv-${suffix}-${n}` });
          if (started.status !== 202) {
            await sleep(POLL_MS);
            continue;
          }
          const run: Tracked = { kind: 'bundle', label, markers: [`[${label}]`] };
          tracked.push(run);
          await settle(run, started.body.statusUrl as string);
        }
      }
    };

    const listLoad = async (): Promise<void> => {
      for (let n = 0; !loadStopped; n += 1) {
        await router.call('GET', ['/api/workflows', '/api/evals/runs', '/api/approvals'][n % 3]!);
        await sleep(100);
      }
    };

    const finished = (kind: Tracked['kind']): number => tracked.filter((run) => run.kind === kind && run.final !== undefined).length;
    /** Waits until the load has made progress: `more` workflow runs and one eval run finished since now. */
    const progress = async (more: number): Promise<void> => {
      const [workflows, evals] = [finished('workflow'), finished('eval')];
      await eventually(async () => [finished('workflow') - workflows, finished('eval') - evals], ([w, e]) => w! >= more && e! >= 1, 30_000);
    };
    /** Waits until a model request of the load from `instance` is open (work in flight there). */
    const inFlightOn = (instance: Instance): Promise<unknown> =>
      eventually(
        async () => model.requests.some((r) => r.state === 'open' && askedBy(r) === instance.name && /\[(wf|ev|bun)-/.test(lastUser(r.body))),
        Boolean,
        15_000,
        5,
      );

    // A parked workflow and a held bundle run on an instance about to be stopped.
    const parkOn = async (instance: Instance, name: string): Promise<{ run: Tracked; url: string; approvalId: string; jobId: string }> => {
      const created = await api(instance.url, 'POST', '/api/workflows', chain(name, ['p1', `[${name}-p1]`], ['gate', 'GATE'], ['p2', `[${name}-p2]`]));
      const started = await api(instance.url, 'POST', `/api/workflows/${created.body.id as string}/runs`);
      const url = started.body.statusUrl as string;
      const parked = await eventually(() => api(instance.url, 'GET', url), (a) => a.body?.status === 'Blocked' && a.body.pendingApprovals?.length === 1);
      const run: Tracked = { kind: 'workflow', label: name, markers: [`[${name}-p1]`, `[${name}-p2]`] };
      tracked.push(run);
      return { run, url, approvalId: parked.body.pendingApprovals[0].approvalId as string, jobId: parked.body.jobId as string };
    };
    const holdOn = async (instance: Instance, handle: string, key: string): Promise<string> => {
      const started = await api(instance.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: [`[${key}] HOLD:${key}`] });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      await eventually(async () => model.asked(`[${key}]`), (n) => n === 1);
      return started.body.statusUrl as string;
    };
    /** Out of the rotation, drained, SIGTERMed: its exit code. */
    const retire = async (instance: Instance): Promise<number | null | 'hung'> => {
      await router.drain(instance);
      return cluster.sigterm(instance);
    };

    const [a, b] = await Promise.all([cluster.serve('a'), cluster.serve('b')]);
    router.add(a);
    router.add(b);
    const handle = await register(a.url);
    const load = [workflowLoad(1), workflowLoad(2), evalLoad(), bundleLoad(handle), listLoad()];
    await progress(3);

    // Deploy step 1: A goes, A' comes.
    const parkedA = await parkOn(a, `parked-a-${suffix}`);
    const heldA = await holdOn(a, handle, `held-a-${suffix}`);
    await inFlightOn(a);
    const exitA = await retire(a);
    const a2 = await cluster.serve('a2');
    router.add(a2);
    const approvedA = await api(a2.url, 'POST', `${parkedA.url}/approvals/${parkedA.approvalId}`, { decision: 'Approve' });
    await progress(3);

    // Deploy step 2: B goes, B' comes.
    const parkedB = await parkOn(b, `parked-b-${suffix}`);
    const heldB = await holdOn(b, handle, `held-b-${suffix}`);
    await inFlightOn(b);
    const exitB = await retire(b);
    const b2 = await cluster.serve('b2');
    router.add(b2);
    const approvedB = await api(b2.url, 'POST', `${parkedB.url}/approvals/${parkedB.approvalId}`, { decision: 'Approve' });
    await progress(3);

    loadStopped = true;
    await Promise.all(load);
    for (const parked of [parkedA, parkedB]) {
      const answer = await eventually(() => api(a2.url, 'GET', parked.url), isStatus(...FINAL), SETTLE_MS).catch(() => undefined);
      parked.run.final = answer?.body;
    }
    // The held model requests are answered only now, long after their instances exited.
    model.release(`held-a-${suffix}`);
    model.release(`held-b-${suffix}`);
    const held: Array<{ status: unknown; error: unknown } | string> = await Promise.all(
      [heldA, heldB].map((url) =>
        eventually(() => api(b2.url, 'GET', url), isStatus(...FINAL), TAKEOVER_BOUND_MS).then(
          (answer): { status: unknown; error: unknown } => ({ status: answer.body.status, error: answer.body.error }),
          (error: unknown) => String(error),
        ),
      ),
    );

    // Every stopped instance exited 0 (the shutdown was clean).
    expect.soft({ a: exitA, b: exitB }, 'exit codes of the SIGTERMed instances').toEqual({ a: 0, b: 0 });
    // Clients saw documented answers only.
    expect.soft(router.calls.map(undocumented).filter((x) => x !== undefined), 'undocumented answers').toEqual([]);
    // No workflow or eval run failed, was cancelled or was lost.
    const summary = (run: Tracked): string => `${run.kind} ${run.label}: ${run.final === undefined ? 'never finished (lost)' : `${String(run.final.status)}${run.final.error ? ` (${String(run.final.error)})` : ''}`}`;
    const durable = tracked.filter((run) => run.kind !== 'bundle');
    expect.soft(durable.filter((run) => run.final?.status !== 'Succeeded').map(summary), 'workflow and eval runs that did not end Succeeded').toEqual([]);
    expect
      .soft(
        tracked.filter((run) => run.kind === 'eval' && run.final?.status === 'Succeeded' && run.final.counts?.passed !== 3).map((run) => `${run.label}: ${JSON.stringify(run.final.counts)}`),
        'eval runs whose cases did not all pass',
      )
      .toEqual([]);
    // Background bundle runs that could finish within the grace period succeeded.
    expect.soft(tracked.filter((run) => run.kind === 'bundle' && run.final?.status !== 'Succeeded').map(summary), 'bundle runs of the load that did not end Succeeded').toEqual([]);
    // No side effect ran twice (or never): each marker asked the model exactly once.
    expect
      .soft(
        tracked.filter((run) => run.final !== undefined).flatMap((run) => run.markers.map((marker) => [marker, model.asked(marker)] as const)).filter(([, n]) => n !== 1).map(([marker, n]) => `${marker} asked ${n} times`),
        'model requests per step, case and turn marker',
      )
      .toEqual([]);
    // The parked runs resumed under their job ids after their approvals were answered on the new instances.
    expect.soft([approvedA.status, approvedB.status], 'approving the parked runs on A′ and B′').toEqual([200, 200]);
    expect.soft([parkedA, parkedB].map((p): unknown[] => [p.run.final?.jobId, p.run.final?.status]), 'the parked runs').toEqual([[parkedA.jobId, 'Succeeded'], [parkedB.jobId, 'Succeeded']]);
    // The bundle runs still running at the end of the grace period: Failed as their host stopped.
    expect.soft(held, 'bundle runs held past the shutdown').toEqual([
      { status: 'Failed', error: HOST_STOPPED },
      { status: 'Failed', error: HOST_STOPPED },
    ]);
    expect.soft([`[held-a-${suffix}]`, `[held-b-${suffix}]`].map((marker) => model.asked(marker)), 'a bundle run is never replayed').toEqual([1, 1]);
    for (const instance of cluster.instances) expect.soft(crashLines(instance.stderr()), `stderr of ${instance.name}`).toEqual([]);
    // The load really ran across the deploy.
    expect(finished('workflow')).toBeGreaterThanOrEqual(9);
    expect(finished('eval')).toBeGreaterThanOrEqual(3);
    expect(finished('bundle')).toBeGreaterThanOrEqual(2);
  }, 150_000);
});
