// DESIGN §19 under the faults of §11, with real `portcullis serve` processes on one real PostgreSQL: an
// eval run of the caller's own dataset (`mine/<name>`), whose subject is the caller's uploaded bundle
// and whose recorded case is replayed (`replay: "all"`), outlives the instance executing it.
// - SIGKILL mid-case: the other instance takes the run over within RunLeaseTtl + 5 s from its
//   checkpoints: the cases judged on the killed instance are not asked again, the recorded case makes
//   no model call on either instance, the case that was with the model is asked again (at-least-once)
//   through the same bundle, and the run files every case passed.
// - SIGTERM mid-case: the instance exits 0 after judging the case in flight on its own answer; the other
//   instance finishes the run without asking any case twice.
// The chat model is a fake in this process that holds any prompt containing HOLD:<key> until the test
// releases it; each instance sends its own API key, so the request log tells which instance asked.
import { describe, expect, it } from 'vitest';
import { api, askedBy, clustersOnSuitePostgres, eventually, expectNoCrash, FINAL, isStatus, register, type Answer } from '../helpers/serve-cluster.js';

const LEASE_SECONDS = 3;
const TAKEOVER_BOUND_MS = (LEASE_SECONDS + 5) * 1_000;
const { model, cluster } = clustersOnSuitePostgres(LEASE_SECONDS);

/**
 * The caller's own dataset `mine/<name>`, in order: a live case, a recorded case (judged by the default
 * matches-recording), the case the test holds at the model, and a case after it. Markers are unique per test.
 */
async function putOwnDataset(base: string, name: string, tag: string): Promise<void> {
  const echo = [{ type: 'contains', value: 'echo' }];
  const cases = [
    { id: 'first', input: `[${tag}-first]`, assert: echo },
    { id: 'recorded', input: `[${tag}-recorded]`, recording: { steps: [{ model: { text: `echo recorded ${tag}`, toolCalls: [] } }] } },
    { id: 'held', input: `[${tag}-held] HOLD:${tag}-held`, assert: echo },
    { id: 'last', input: `[${tag}-last]`, assert: echo },
  ];
  const res = await api(base, 'PUT', `/api/evals/datasets/mine/${name}`, { description: 'An author’s cases', cases });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Starts the run through `base` (one case at a time, in order); its status path. */
async function startOwnRun(base: string, name: string, handle: string): Promise<string> {
  const started = await api(base, 'POST', '/api/evals/runs', { datasets: [`mine/${name}`], subject: { handle }, replay: 'all', parallelism: 1 });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return `/api/evals/runs/${started.body.jobId as string}`;
}

const markers = (tag: string) => ['first', 'recorded', 'held', 'last'].map((id) => `[${tag}-${id}]`);

describe('an author’s eval run (own dataset, bundle subject, replay) when its instance stops (PostgreSQL)', () => {
  it('is taken over after a SIGKILL within RunLeaseTtl + 5 s: judged cases kept, the recorded case never asks the model, the held case asked again, every case passed', async () => {
    const current = cluster('own_kill');
    const [a, b] = await Promise.all([current.serve('ka'), current.serve('kb')]);
    const handle = await register(a.url);
    await putOwnDataset(a.url, 'killed', 'ok');
    const runUrl = await startOwnRun(a.url, 'killed', handle);
    const [first, recorded, held, last] = markers('ok');
    await eventually(async () => model.asked(held!), (n) => n === 1);
    expect(model.requestsWith(first!).map(askedBy), 'the first case was asked by the instance executing the run').toEqual(['ka']);

    a.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    model.release('ok-held');

    const done = await eventually(() => api(b.url, 'GET', runUrl), isStatus(...FINAL), TAKEOVER_BOUND_MS + 10_000);
    expect(Date.now() - killedAt, 'ms from the SIGKILL to the run filed by the other instance').toBeLessThan(TAKEOVER_BOUND_MS + 5_000);
    expect(done.body.status, JSON.stringify(done.body)).toBe('Succeeded');
    expect(done.body.counts).toEqual({ total: 4, passed: 4, failed: 0, warned: 0, errored: 0 });
    expect([first, recorded, held, last].map((marker) => model.asked(marker!)), 'model requests per case').toEqual([1, 0, 2, 1]);
    expect(model.requestsWith(last!).map(askedBy), 'the case after the takeover was asked by the surviving instance').toEqual(['kb']);
    // The report the surviving instance files names every case of the author's dataset, none failed.
    const xml = await (await fetch(`${b.url}${runUrl}/report.xml`)).text();
    for (const id of ['first', 'recorded', 'held', 'last']) expect(xml).toContain(`name="${id}"`);
    expect(xml).not.toMatch(/<(failure|error)\b/);
    expectNoCrash([b]);
  }, 60_000);

  it('is finished by the other instance after a SIGTERM (exit 0): the case in flight is judged on its own answer and no case is asked twice', async () => {
    const current = cluster('own_term');
    const [a, b] = await Promise.all([current.serve('ta'), current.serve('tb')]);
    const handle = await register(a.url);
    await putOwnDataset(a.url, 'stopped', 'tm');
    const runUrl = await startOwnRun(a.url, 'stopped', handle);
    const [first, recorded, held, last] = markers('tm');
    await eventually(async () => model.asked(held!), (n) => n === 1);

    const exit = current.sigterm(a);
    await eventually(() => api(a.url, 'GET', '/healthz', undefined, 2_000).catch(() => ({ status: 0, body: null })), (res: Answer) => res.status !== 200, 5_000);
    model.release('tm-held');
    expect(await exit, 'exit code of the SIGTERMed instance').toBe(0);

    const done = await eventually(() => api(b.url, 'GET', runUrl), isStatus(...FINAL), TAKEOVER_BOUND_MS + 10_000);
    expect(done.body.status, JSON.stringify(done.body)).toBe('Succeeded');
    expect(done.body.counts).toEqual({ total: 4, passed: 4, failed: 0, warned: 0, errored: 0 });
    expect([first, recorded, held, last].map((marker) => model.asked(marker!)), 'model requests per case').toEqual([1, 0, 1, 1]);
    expect(model.requestsWith(last!).map(askedBy)).toEqual(['tb']);
    expectNoCrash(current.instances);
  }, 60_000);
});
