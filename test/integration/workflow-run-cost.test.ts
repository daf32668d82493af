// What a workflow run costs the storage (issue 28): a 3-step run (ToolUse → LlmCall → ToolUse) from
// its start request to its last write, counted as operations on the storage port — on PostgreSQL one
// statement each. Rate takes are left out (on PostgreSQL a busy caller's cost a statement per block,
// pg-rate-windows.test.ts); so are the test's own reads, made on the storage underneath, and what the
// instance sends on its own timers meanwhile (a scan or a schedule tick landing inside the run when the
// machine is slow): counted.caused attributes each operation to the work that sent it (decision 3501).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { openTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { countingStorage, type CountingStorage } from '../helpers/counting-storage.js';
import { eventually } from '../helpers/eventually.js';
import { chain, gateStep, llmStep, start, submit, toolStep, workflowSettings } from './workflows-harness.js';

let own: TestStorage;
let counted: CountingStorage;
let t: TestApp;

const notRates = (call: string): boolean => !call.startsWith('rates.');

beforeAll(async () => {
  own = await openTestStorage();
  counted = countingStorage(own.storage);
  t = await buildTestApp({ settings: workflowSettings({ ChatModel: { Provider: 'Scripted' } }), deps: { storage: counted.storage } });
});
afterAll(async () => {
  await t.close();
  await own.dispose();
});

describe('a 3-step workflow run, start to last write', () => {
  it('costs at most 6 storage operations, none to begin it, and its polls on the instance that finished it none (16 on PostgreSQL and 17 on Memory before issue 28)', async () => {
    const workflowId = await submit(t.app, chain('three', toolStep('before'), llmStep('ask', 'hello'), toolStep('after')));
    const { value: { jobId, statusUrl }, calls: caused } = await counted.caused(() => start(t.app, workflowId));
    const plan = { collection: 'workflow-run-plan', ownerId: 'anonymous:dev', id: jobId };
    const run = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: jobId };
    // Read underneath the counter: the run is final and its plan expires with it (the last write).
    await eventually(async () => ((await own.storage.records.get(run))?.state === 'Succeeded' && (await own.storage.records.get(plan))?.expiresAt !== null ? true : undefined));
    const operations = caused.filter(notRates);
    expect(operations.length, operations.join('\n')).toBeLessThanOrEqual(6);
    // Attributed to the run through to its last write (its final commit), so nothing of it goes uncounted.
    expect(operations.at(-1)).toBe('journal.commit');
    // Admitted already Running (a slot was free): its first write after the insert is a checkpoint, not a begin.
    expect(operations.slice(0, 2)).toEqual(['records.get', 'records.insert']);
    // A run this instance finished is answered from memory from its first poll on, steps and all.
    const poll = await counted.caused(() => t.app.inject({ method: 'GET', url: statusUrl }));
    const polled = poll.value.json();
    expect(polled).toMatchObject({ status: 'Succeeded', error: null });
    expect(polled.steps.map((step: { status: string }) => step.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(poll.calls.filter(notRates)).toEqual([]);
    // What memory answered is what the storage holds.
    const stored = new Map((await own.storage.journal.items<{ status: string; completedAt: number; redacted: unknown }>(run)).map((item) => [item.key, item.data]));
    for (const step of polled.steps as Array<{ id: string; status: string; completedAt: string; output: unknown }>) {
      const item = stored.get(step.id);
      expect({ status: step.status, completedAt: step.completedAt, output: step.output }).toEqual({ status: item?.status, completedAt: new Date(item!.completedAt).toISOString(), output: item?.redacted });
    }
  });

  it('polls a live run with three reads: the run, its steps, its approvals (five before issue 28)', async () => {
    const workflowId = await submit(t.app, chain('gated', gateStep('gate'), toolStep('after')));
    const { jobId, statusUrl } = await start(t.app, workflowId);
    const run = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: jobId };
    await eventually(async () => ((await own.storage.records.get(run))?.state === 'Blocked' ? true : undefined));
    const poll = await counted.caused(() => t.app.inject({ method: 'GET', url: statusUrl }));
    expect(poll.value.json()).toMatchObject({ status: 'Blocked' });
    expect(poll.calls.filter(notRates)).toEqual(['records.get', 'journal.items', 'records.list']);
  });
});

