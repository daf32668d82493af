// DESIGN §19 "own datasets" on both providers: PUT /api/evals/datasets/mine/{name} makes versions (201 for
// a new name, 200 and the same version for equal content, version + 1 otherwise), GET shows a version as
// it was PUT, the list pages, DELETE removes every version; owner-scoped (foreign = unknown), gated as
// runs are (403), validated as a dataset file is (400 naming the case and field), names and limits
// refused with 400, Idempotency-Key replays, racing PUTs never lose a write (one instance or two), and a
// run names them `mine/<name>` or `mine/<name>@<version>`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { withoutIdEcho, withoutTraceId } from '../helpers/problem-body.js';
import { buildEvalApp, evalSettings, runToEnd, startEvalHarness, startRun, SteerableModel, tokenFor, writeDatasets, type EvalHarness } from './evals-harness.js';

const MAX_DATASET_BYTES = 4096;
const LIMITS = { Evaluation: { MaxDatasetBytes: MAX_DATASET_BYTES } };

let harness: EvalHarness;
let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
const model = new SteerableModel();

type Headers = Record<string, string>;

const url = (name: string) => `/api/evals/datasets/mine/${encodeURIComponent(name)}`;
const put = (headers: Headers, name: string, body: unknown, app: TestApp = t) =>
  app.app.inject({ method: 'PUT', url: url(name), headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const get = (headers: Headers, name: string, query = '') => t.app.inject({ method: 'GET', url: `${url(name)}${query}`, headers });
const remove = (headers: Headers, name: string) => t.app.inject({ method: 'DELETE', url: url(name), headers });
const list = (headers: Headers, query = '') => t.app.inject({ method: 'GET', url: `/api/evals/datasets/mine${query}`, headers });

/** A valid dataset whose cases answer `reply:<text>` and pass when the answer contains it. */
const dataset = (...answers: string[]) => ({
  description: 'Own cases',
  cases: answers.map((answer, index) => ({ id: `c${index + 1}`, tags: ['own'], input: `reply:${answer}`, assert: [{ type: 'icontains', value: answer }] })),
});

const BROKEN = {
  cases: [
    { id: 'ok', input: 'fine' },
    { id: 'wrong-type', input: 'hi', assert: [{ type: 'sounds-right' }] },
  ],
};

function expectProblem(res: Awaited<ReturnType<typeof get>>, status: number, detail?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  if (detail) expect(res.json().detail).toMatch(detail);
}

beforeAll(async () => {
  harness = await startEvalHarness();
  await writeDatasets(harness.root, { 'broken.json': BROKEN, 'host.json': dataset('host') });
  t = await buildEvalApp(harness, LIMITS, { chatModel: model });
  alice = await tokenFor(harness, 'alice');
  bob = await tokenFor(harness, 'bob');
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('PUT /api/evals/datasets/mine/{name}', () => {
  it('201 for a new name, 200 with the same version for equal content, version + 1 for other content', async () => {
    const created = await put(alice, 'faq', dataset('one'));
    expect(created.statusCode).toBe(201);
    const first = created.json();
    expect(first).toEqual({ name: 'faq', version: 1, caseCount: 1, createdAt: expect.any(String) });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);

    // Equal content, keys in another order and pretty-printed: the same version, as it was.
    const reordered = { cases: [{ assert: [{ value: 'one', type: 'icontains' }], input: 'reply:one', tags: ['own'], id: 'c1' }], description: 'Own cases' };
    const same = await t.app.inject({ method: 'PUT', url: url('faq'), headers: { ...alice, 'content-type': 'application/json' }, payload: JSON.stringify(reordered, null, 2) });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(first);

    const changed = await put(alice, 'faq', dataset('one', 'two'));
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'faq', version: 2, caseCount: 2 });
    // Equal to an older version but not the latest: a new version.
    expect((await put(alice, 'faq', dataset('one'))).json()).toMatchObject({ version: 3, caseCount: 1 });
    expect((await put(alice, 'faq', dataset('one', 'two'))).json()).toMatchObject({ version: 4, caseCount: 2 });
  });

  it('400 naming the case and the field, with the detail a dataset file with the same content gets', async () => {
    const own = await put(alice, 'broken', BROKEN);
    expectProblem(own, 400, /case 'wrong-type' \(#2\).*assert\[0\]\.type must be one of/);
    const file = await startRun(t, alice, { datasets: ['broken'] });
    expectProblem(file, 400);
    expect(own.json().detail.replace("'mine/broken'", "'broken.json'")).toBe(file.json().detail);
    expectProblem(await put(alice, 'broken', { cases: [] }), 400, /must list at least one case/);
    expectProblem(await put(alice, 'broken', { cases: [{ input: 'x' }], owner: 'bob' }), 400, /unknown key 'owner'/);
    expectProblem(await put(alice, 'broken', ['not', 'an', 'object']), 400, /must be an object with `cases`/);
    const empty = await t.app.inject({ method: 'PUT', url: url('broken'), headers: alice });
    expectProblem(empty, 400, /body is empty/);
    expectProblem(await get(alice, 'broken'), 404);
  });

  it('400 for a name outside [a-z0-9][a-z0-9-]{0,63}, the same answer whatever the name', async () => {
    const names = ['Faq', 'faq_1', '-faq', 'a'.repeat(65), 'faq@2', 'a\u0000b', 'é', 'x'.repeat(5_000)];
    const answers = await Promise.all(names.map((name) => put(alice, name, dataset('x'))));
    for (const res of answers) expectProblem(res, 400, /\[a-z0-9\]\[a-z0-9-\]\{0,63\}/);
    expect(new Set(answers.map((res) => withoutIdEcho(res.body))).size).toBe(1);
    expect((await put(alice, 'a'.repeat(64), dataset('x'))).statusCode).toBe(201);
    expect((await put(alice, '0-a-b', dataset('x'))).statusCode).toBe(201);
  });

  it('400 when a version is larger than Evaluation:MaxDatasetBytes; nothing is stored', async () => {
    const res = await put(alice, 'huge', dataset('x'.repeat(MAX_DATASET_BYTES)));
    expectProblem(res, 400, new RegExp(`Dataset 'mine/huge' is larger than Evaluation:MaxDatasetBytes \\(${MAX_DATASET_BYTES} bytes\\)`));
    expectProblem(await get(alice, 'huge'), 404);
  });

  it('replays the first answer for a repeat with the same Idempotency-Key and body; 422 with another body', async () => {
    const headers = { ...alice, 'idempotency-key': 'put-keyed-1' };
    const first = await put(headers, 'keyed', dataset('k'));
    expect(first.statusCode).toBe(201);
    const again = await put(headers, 'keyed', dataset('k'));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expectProblem(await put(headers, 'keyed', dataset('other')), 422);
    expect((await get(alice, 'keyed')).json().version).toBe(1);
  });
});

describe('GET and DELETE /api/evals/datasets/mine/{name}', () => {
  it('GET answers the latest version or ?version=N as it was PUT, with name, version and createdAt; 404 for a version it does not have', async () => {
    const v1 = { description: null, subject: { system: 'Be brief.', tools: ['clock'] }, timeoutSeconds: 30, cases: [{ input: 'reply:a', assert: [{ type: 'equals', value: { any: ['json', 1] }, severity: 'warn' }] }] };
    const v2 = dataset('b', 'c');
    const created = (await put(alice, 'shown', v1)).json();
    const second = (await put(alice, 'shown', v2)).json();
    const latest = await get(alice, 'shown');
    expect(latest.statusCode).toBe(200);
    expect(latest.json()).toEqual({ name: 'shown', version: 2, createdAt: second.createdAt, ...v2 });
    expect((await get(alice, 'shown', '?version=1')).json()).toEqual({ name: 'shown', version: 1, createdAt: created.createdAt, ...v1 });
    expect((await get(alice, 'shown', '?version=2')).json()).toEqual(latest.json());
    expectProblem(await get(alice, 'shown', '?version=3'), 404, /no such version/);
    expectProblem(await get(alice, 'shown', '?version=999999999999'), 404, /no such version/);
    expectProblem(await get(alice, 'shown', '?version=0'), 400);
    expectProblem(await get(alice, 'shown', '?version=two'), 400);
    // What GET shows, less name, version and createdAt, is a PUT body with the same content.
    const { name: _n, version: _v, createdAt: _c, ...body } = latest.json();
    expect((await put(alice, 'shown', body)).json()).toMatchObject({ version: 2 });
  });

  it('404 for an unknown name and for a name that cannot be one, alike', async () => {
    const unknown = await get(alice, 'never-put');
    expectProblem(unknown, 404, /Dataset not found/);
    for (const name of ['NOPE', 'a\u0000b', 'x'.repeat(600), 'mine@1']) {
      expect(withoutIdEcho((await get(alice, name)).body), name).toBe(withoutIdEcho(unknown.body));
    }
    expectProblem(await remove(alice, 'never-put'), 404, /Dataset not found/);
    expectProblem(await remove(alice, 'NOPE'), 404, /Dataset not found/);
  });

  it('DELETE 204 removes every version; the name is then unknown and a new PUT starts again at version 1', async () => {
    await put(alice, 'gone', dataset('a'));
    await put(alice, 'gone', dataset('b'));
    const deleted = await remove(alice, 'gone');
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectProblem(await get(alice, 'gone'), 404);
    expectProblem(await get(alice, 'gone', '?version=1'), 404);
    expectProblem(await remove(alice, 'gone'), 404);
    expect((await list(alice, '?limit=200')).json().datasets.map((d: { name: string }) => d.name)).not.toContain('gone');
    const again = await put(alice, 'gone', dataset('b'));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ version: 1 });
    expect((await get(alice, 'gone')).json().cases[0].input).toBe('reply:b');
  });

  it('keeps every dataset to its owner: foreign is unknown to GET, DELETE and runs, and a PUT of the name makes the caller’s own', async () => {
    await put(alice, 'private', dataset('alice'));
    expectProblem(await get(bob, 'private'), 404, /Dataset not found/);
    expectProblem(await get(bob, 'private', '?version=1'), 404, /Dataset not found/);
    expectProblem(await remove(bob, 'private'), 404);
    const unknownRun = await startRun(t, bob, { datasets: ['mine/private'] });
    expectProblem(unknownRun, 404);
    expect(withoutTraceId(unknownRun.body)).toBe(withoutTraceId((await startRun(t, bob, { datasets: ['no-such-host-dataset'] })).body));
    const own = await put(bob, 'private', dataset('bob', 'too'));
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ version: 1, caseCount: 2 });
    expect((await get(alice, 'private')).json()).toMatchObject({ version: 1, cases: [{ input: 'reply:alice' }] });
    expect((await get(bob, 'private')).json()).toMatchObject({ version: 1, cases: [{ input: 'reply:bob' }, { input: 'reply:too' }] });
    expect((await list(bob)).json().datasets).toEqual([{ name: 'private', version: 1, caseCount: 2, updatedAt: own.json().createdAt }]);
  });
});

describe('GET /api/evals/datasets/mine', () => {
  it('lists the caller’s datasets newest first with their latest version, in pages', async () => {
    const carol = await tokenFor(harness, 'carol');
    expect((await list(carol)).json()).toEqual({ datasets: [], nextCursor: null });
    await put(carol, 'first', dataset('a'));
    await put(carol, 'second', dataset('a'));
    await put(carol, 'third', dataset('a'));
    const latest = (await put(carol, 'first', dataset('a', 'b'))).json();
    const page = (await list(carol, '?limit=2')).json();
    expect(page.datasets.map((d: { name: string }) => d.name)).toEqual(['third', 'second']);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = (await list(carol, `?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)).json();
    expect(rest).toEqual({ datasets: [{ name: 'first', version: 2, caseCount: 2, updatedAt: latest.createdAt }], nextCursor: null });
    expectProblem(await list(carol, '?limit=0'), 400);
    expectProblem(await list(carol, '?cursor=forged'), 400);
  });
});

describe('limits and gates', () => {
  it('400 for a PUT that would create the 101st dataset; changing an existing one still works', async () => {
    const dave = await tokenFor(harness, 'dave');
    for (let i = 0; i < 100; i += 1) expect((await put(dave, `d-${i}`, dataset('x'))).statusCode).toBe(201);
    expectProblem(await put(dave, 'd-100', dataset('x')), 400, /already has 100 datasets/);
    expectProblem(await get(dave, 'd-100'), 404);
    expect((await put(dave, 'd-7', dataset('y'))).json()).toMatchObject({ version: 2 });
    expect((await remove(dave, 'd-0')).statusCode).toBe(204);
    expect((await put(dave, 'd-100', dataset('x'))).statusCode).toBe(201);
  });

  it('403 without the role Harness.Evals.Execute on every route, before the body or name is read', async () => {
    const norole = await tokenFor(harness, 'alice', ['Harness.Tools.Invoke']);
    expectProblem(await put(norole, 'faq', dataset('x')), 403, /Harness\.Evals\.Execute/);
    expectProblem(await put(norole, 'Bad_Name', { nonsense: true }), 403);
    expectProblem(await get(norole, 'faq'), 403);
    expectProblem(await list(norole), 403);
    expectProblem(await remove(norole, 'faq'), 403);
    expect((await get(alice, 'faq')).statusCode).toBe(200);
  });

  it('403 when evaluation is disabled, even with the role', async () => {
    const disabled = await buildEvalApp(harness, { Evaluation: { Enabled: false } });
    try {
      const headers = await tokenFor(harness, 'alice');
      expectProblem(await put(headers, 'faq', dataset('x'), disabled), 403);
      expectProblem(await disabled.app.inject({ method: 'GET', url: '/api/evals/datasets/mine', headers }), 403);
    } finally {
      await disabled.close();
    }
  });

  it('401 without a bearer token', async () => {
    expectProblem(await put({}, 'faq', dataset('x')), 401);
    expectProblem(await list({}), 401);
  });
});

describe('racing PUTs of one name', () => {
  const contents = (name: string, n: number) => Array.from({ length: n }, (_, i) => dataset(`${name}-${i}`));

  async function expectEveryWriteKept(headers: Headers, name: string, sent: object[], answers: Array<Awaited<ReturnType<typeof put>>>) {
    const versions = answers.map((res) => res.json().version as number);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([...Array.from({ length: sent.length - 1 }, () => 200), 201]);
    expect([...versions].sort((a, b) => a - b)).toEqual(sent.map((_, i) => i + 1));
    for (const [i, content] of sent.entries()) {
      const { name: _n, version, createdAt: _c, ...stored } = (await get(headers, name, `?version=${versions[i]}`)).json();
      expect(version).toBe(versions[i]);
      expect(stored).toEqual(content);
    }
    expect((await get(headers, name)).json().version).toBe(sent.length);
  }

  it('two different contents: each becomes its own version, both retrievable, none lost', async () => {
    const sent = contents('race-two', 2);
    await expectEveryWriteKept(alice, 'race-two', sent, await Promise.all(sent.map((body) => put(alice, 'race-two', body))));
  });

  it('eight different contents on an existing dataset: eight new versions, each holding what its PUT sent', async () => {
    await put(alice, 'race-eight', dataset('base'));
    const sent = contents('race-eight', 8);
    const answers = await Promise.all(sent.map((body) => put(alice, 'race-eight', body)));
    expect(answers.map((res) => res.statusCode)).toEqual(sent.map(() => 200));
    const versions = answers.map((res) => res.json().version as number).sort((a, b) => a - b);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    for (const [i, res] of answers.entries()) {
      const { name: _n, version: _v, createdAt: _c, ...stored } = (await get(alice, 'race-eight', `?version=${res.json().version}`)).json();
      expect(stored).toEqual(sent[i]);
    }
  });

  it('equal contents: one version, answered to every PUT (one 201)', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => put(alice, 'race-equal', dataset('same'))));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(answers[0]!.json()).toMatchObject({ version: 1 });
    expect((await list(alice, '?limit=200')).json().datasets.find((d: { name: string }) => d.name === 'race-equal')).toMatchObject({ version: 1 });
  });

  it('PUTs racing a DELETE leave a whole dataset or none: every version up to the latest is there', async () => {
    for (let round = 0; round < 5; round += 1) {
      const name = `race-delete-${round}`;
      await put(alice, name, dataset('base'));
      const [first, deleted, second] = await Promise.all([put(alice, name, dataset('a')), remove(alice, name), put(alice, name, dataset('b'))]);
      expect([first.statusCode, second.statusCode].every((status) => status === 200 || status === 201)).toBe(true);
      expect(deleted.statusCode).toBe(204);
      const latest = await get(alice, name);
      if (latest.statusCode === 404) continue;
      const { version } = latest.json();
      for (let v = 1; v <= version; v += 1) expect((await get(alice, name, `?version=${v}`)).statusCode, `${name}@${v}`).toBe(200);
    }
  });

  describe('through two instances sharing one storage', () => {
    let shared: TestStorage;
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      shared = await openSharedTestStorage();
      const settings = evalSettings(harness, LIMITS);
      a = await buildTestApp({ environment: 'Production', settings, deps: { storage: shared.storage, instanceId: 'a' } });
      b = await buildTestApp({ environment: 'Production', settings, deps: { storage: shared.storage, instanceId: 'b' } });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await shared.dispose();
    });

    it('never loses a write, whichever instance answers', async () => {
      for (let round = 0; round < 3; round += 1) {
        const name = `split-${round}`;
        const sent = contents(name, 4);
        const answers = await Promise.all(sent.map((body, i) => put(alice, name, body, i % 2 === 0 ? a : b)));
        const versions = answers.map((res) => res.json().version as number);
        expect([...versions].sort((x, y) => x - y)).toEqual([1, 2, 3, 4]);
        for (const [i, version] of versions.entries()) {
          const shown = (await (i % 2 === 0 ? b : a).app.inject({ method: 'GET', url: `${url(name)}?version=${version}`, headers: alice })).json();
          expect(shown.cases).toEqual(sent[i]!.cases);
        }
      }
    });
  });
});

describe('runs naming own datasets', () => {
  it('runs mine/<name> (the latest) and mine/<name>@<version>, listed in the poll body as named', async () => {
    const erin = await tokenFor(harness, 'erin');
    await put(erin, 'suite', dataset('first'));
    await put(erin, 'suite', dataset('first', 'second', 'third'));
    const done = await runToEnd(t, erin, { datasets: ['mine/suite', 'mine/suite@1', 'host'] });
    expect(done.status).toBe('Succeeded');
    expect(done.datasets).toEqual(['mine/suite', 'mine/suite@1', 'host']);
    expect(done.counts).toEqual({ passed: 5, failed: 0, warned: 0, errored: 0, total: 5 });
    expect(done.report.byDataset.map((d: { name: string; passed: number }) => [d.name, d.passed])).toEqual([
      ['mine/suite', 3],
      ['mine/suite@1', 1],
      ['host', 1],
    ]);
  });

  it('404 for an unknown own dataset or version, the answer of any unknown dataset; nothing is queued', async () => {
    const frank = await tokenFor(harness, 'frank');
    await put(frank, 'known', dataset('x'));
    const unknownHost = withoutTraceId((await startRun(t, frank, { datasets: ['no-such-host-dataset'] })).body);
    for (const name of ['mine/unknown', 'mine/known@2', 'mine/known@0', 'mine/known@01', 'mine/known@', 'mine/Known', 'mine/', 'mine/known/x']) {
      const res = await startRun(t, frank, { datasets: ['mine/known', name] });
      expectProblem(res, 404);
      expect(withoutTraceId(res.body), name).toBe(unknownHost);
    }
  });
});
