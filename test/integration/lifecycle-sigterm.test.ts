// DESIGN §1 and §11 with real processes: a SIGTERM is a clean shutdown (exit 0) that leaves durable
// work to the next instance instead of settling it as cancelled or failed. A workflow parked on a
// HumanGate stays Blocked with the same approval across the restart and resumes under the same job id;
// an eval case in flight on the stopped instance is judged on its own model answer; a bundle run that
// was executing ends Failed as its host stopped (never as cancelled), within RunLeaseTtl + 5 s of a new
// instance starting. Each test has a schema of its own on the suite's PostgreSQL server (no test here
// stops the database). The chat model is a fake in this process that holds any prompt containing
// HOLD:<key> until the test releases it.
import { describe, expect, it } from 'vitest';
import {
  api,
  askedBy,
  chain,
  clustersOnSuitePostgres,
  eventually,
  expectNoCrash,
  FINAL,
  isStatus,
  register,
  sleep,
  startWorkflow,
  submit,
  type Answer,
} from '../helpers/serve-cluster.js';

const LEASE_SECONDS = 3;
const TAKEOVER_BOUND_MS = (LEASE_SECONDS + 5) * 1_000;
const HOST_STOPPED = 'The host executing this run stopped.';

const { model, cluster } = clustersOnSuitePostgres(LEASE_SECONDS);

describe('SIGTERM of an instance (PostgreSQL)', () => {
  it('keeps a workflow run parked on a HumanGate Blocked with the same approval across a restart, and approving it on the new instance finishes the same job', async () => {
    const current = cluster('sig_gate');
    const first = await current.serve('g1');
    const workflowId = await submit(first.url, chain('parked', ['draft', 'write [gate-draft]'], ['gate', 'GATE'], ['after', 'ship [gate-after]']));
    const statusUrl = await startWorkflow(first.url, workflowId);
    const parked = await eventually(() => api(first.url, 'GET', statusUrl), (a) => a.body?.status === 'Blocked' && a.body.pendingApprovals?.length === 1);
    const approvalId = parked.body.pendingApprovals[0].approvalId as string;
    const stepsBefore = parked.body.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`);
    expect(stepsBefore).toEqual(['draft:Succeeded', 'gate:Waiting', 'after:Pending']);

    expect(await current.sigterm(first), 'exit code of the SIGTERMed instance').toBe(0);

    const second = await current.serve('g2');
    // From the new instance's first answer until well after its first takeover scan (RunLeaseTtl / 3)
    // and a whole lease: the run is Blocked on the same approval every time it is polled.
    const seen = new Set<string>();
    const until = Date.now() + (LEASE_SECONDS + 2) * 1_000;
    while (Date.now() < until) {
      const poll = await api(second.url, 'GET', statusUrl);
      const steps = (poll.body?.steps ?? []).map((s: { name: string; status: string }) => `${s.name}:${s.status}`).join(' ');
      const approvals = (poll.body?.pendingApprovals ?? []).map((p: { approvalId: string }) => p.approvalId).join(',');
      seen.add(`${poll.status} ${String(poll.body?.status)} approvals=[${approvals}] ${steps}`);
      await sleep(50);
    }
    expect([...seen], 'every poll of the restarted run').toEqual([`200 Blocked approvals=[${approvalId}] ${stepsBefore.join(' ')}`]);

    const approved = await api(second.url, 'POST', `${statusUrl}/approvals/${approvalId}`, { decision: 'Approve' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const done = await eventually(() => api(second.url, 'GET', statusUrl), isStatus(...FINAL), TAKEOVER_BOUND_MS);
    expect(done.body).toMatchObject({ jobId: parked.body.jobId, status: 'Succeeded' });
    expect(done.body.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect([model.asked('[gate-draft]'), model.asked('[gate-after]')], 'model requests of draft and after').toEqual([1, 1]);
    expectNoCrash(current.instances);
  }, 60_000);

  it('lets the other instance finish an eval run whose case was in flight on the SIGTERMed instance, judging that case on its own model answer', async () => {
    const current = cluster('sig_eval');
    // In order, one at a time: two judged on A, the third in flight on A at the SIGTERM, a fourth not begun.
    await current.dataset('inflight', ['[ev-c1]', '[ev-c2]', '[ev-c3] HOLD:ev-c3', '[ev-c4]']);
    const [a, b] = await Promise.all([current.serve('ea'), current.serve('eb')]);
    // Started through A: A admitted it and executes it (cases in order, one at a time).
    const started = await api(a.url, 'POST', '/api/evals/runs', { datasets: ['inflight'], parallelism: 1 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runUrl = `/api/evals/runs/${started.body.jobId as string}`;
    await eventually(async () => model.asked('[ev-c3]'), (n) => n === 1);
    expect(['[ev-c1]', '[ev-c2]', '[ev-c3]'].map((marker) => model.requestsWith(marker).map(askedBy)), 'which instance asked the model for each case').toEqual([['ea'], ['ea'], ['ea']]);

    const exit = current.sigterm(a);
    // A has begun shutting down (it no longer answers 200) before the held case's answer arrives.
    await eventually(() => api(a.url, 'GET', '/healthz', undefined, 2_000).catch(() => ({ status: 0, body: null })), (res: Answer) => res.status !== 200, 5_000);
    model.release('ev-c3');
    expect(await exit, 'exit code of the SIGTERMed instance').toBe(0);

    const done = await eventually(() => api(b.url, 'GET', runUrl), isStatus(...FINAL), TAKEOVER_BOUND_MS + 10_000);
    expect(done.body.status).toBe('Succeeded');
    expect(done.body.counts, 'counts of the finished run').toEqual({ total: 4, passed: 4, failed: 0, warned: 0, errored: 0 });
    // The cases judged on A are kept, not run again; the one in flight was answered once and judged on that answer.
    expect(['[ev-c1]', '[ev-c2]', '[ev-c3]', '[ev-c4]'].map((marker) => model.asked(marker)), 'model requests per case').toEqual([1, 1, 1, 1]);
    expectNoCrash(current.instances);
  }, 60_000);

  it('ends a background bundle run that was executing on the SIGTERMed instance Failed as its host stopped, within RunLeaseTtl + 5 s of a new instance serving', async () => {
    const current = cluster('sig_bundle');
    const first = await current.serve('b1');
    const handle = await register(first.url);
    const run = await api(first.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['[held-bundle] HOLD:held-bundle'] });
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const statusUrl = run.body.statusUrl as string;
    await eventually(async () => model.asked('[held-bundle]'), (n) => n === 1);
    expect((await api(first.url, 'GET', statusUrl)).body.status).toBe('Running');

    // The model's answer never comes while the instance lives: it is still running when the instance stops.
    expect(await current.sigterm(first), 'exit code of the SIGTERMed instance').toBe(0);
    model.release('held-bundle');

    // Counted from when the new instance answers: its own start-up (seconds on a busy machine) is not the takeover.
    const second = await current.serve('b2');
    const startedAt = Date.now();
    const done = await eventually(() => api(second.url, 'GET', statusUrl), isStatus(...FINAL), TAKEOVER_BOUND_MS + 5_000);
    const elapsedMs = Date.now() - startedAt;
    expect({ status: done.body.status, error: done.body.error }).toEqual({ status: 'Failed', error: HOST_STOPPED });
    expect(elapsedMs, 'ms from the new instance starting to the run being final').toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    expect(model.asked('[held-bundle]'), 'a bundle run is never replayed').toBe(1);
    expectNoCrash(current.instances);
  }, 60_000);
});
