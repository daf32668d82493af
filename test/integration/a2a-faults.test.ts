// DESIGN §20 under the faults of §11, with real `portcullis serve` processes on one real PostgreSQL and
// the official @a2a-js/sdk client: an A2A task is a bundle run, so a task that was working on an
// instance killed with SIGKILL ends FAILED — never COMPLETED from a second model call, never left
// WORKING — within RunLeaseTtl + 5 s, as GetTask and a SubscribeToTask opened through the surviving
// instance both show; a SIGTERMed instance exits 0 and its working task ends FAILED the same way once
// another instance runs. The model is asked once either way (a bundle run is never replayed).
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { api, clustersOnSuitePostgres, eventually, expectNoCrash, register, type Instance } from '../helpers/serve-cluster.js';
import { a2aClient, asTask, stateOf, textMessage } from './a2a-harness.js';

const LEASE_SECONDS = 3;
const TAKEOVER_BOUND_MS = (LEASE_SECONDS + 5) * 1_000;
const A2A_ON = { AppConfig__AI__A2A__Enabled: 'true' };
const { model, cluster } = clustersOnSuitePostgres(LEASE_SECONDS);

/** Sends a held message through `instance` without waiting for the end; the task once the model has it. */
async function workingTask(instance: Instance, handle: string, marker: string): Promise<Task> {
  const client = await a2aClient(instance.url, handle);
  const task = asTask(await client.sendMessage(textMessage(`[${marker}] HOLD:${marker}`, { returnImmediately: true })));
  await eventually(async () => model.asked(`[${marker}]`), (n) => n === 1);
  return task;
}

describe('an A2A task when the instance running it stops (PostgreSQL)', () => {
  it('ends FAILED within RunLeaseTtl + 5 s of a SIGKILL, through GetTask and a SubscribeToTask opened on the surviving instance, and the model is not asked again', async () => {
    const current = cluster('a2a_kill');
    const [a, b] = await Promise.all([current.serve('aa', A2A_ON), current.serve('ab', A2A_ON)]);
    const handle = await register(a.url);
    const task = await workingTask(a, handle, 'a2a-killed');
    const other = await a2aClient(b.url, handle);
    expect(stateOf(await other.getTask({ tenant: '', id: task.id }))).toBe('TASK_STATE_WORKING');
    const events: StreamResponse[] = [];
    const following = (async () => {
      for await (const event of other.resubscribeTask({ tenant: '', id: task.id })) events.push(event);
    })();
    await eventually(async () => events.length, (n) => n > 0);

    a.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    model.release('a2a-killed');

    const ended = await eventually(() => other.getTask({ tenant: '', id: task.id }), (read) => stateOf(read) !== 'TASK_STATE_WORKING' && stateOf(read) !== 'TASK_STATE_SUBMITTED', TAKEOVER_BOUND_MS + 10_000);
    expect(Date.now() - killedAt, 'ms from the SIGKILL to the task ending').toBeLessThan(TAKEOVER_BOUND_MS + 5_000);
    expect(stateOf(ended)).toBe('TASK_STATE_FAILED');
    await following;
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined, 'the subscription’s last event').toBe(TaskState.TASK_STATE_FAILED);
    expect(model.asked('[a2a-killed]'), 'a task is never replayed').toBe(1);
    // The same run on the bundle routes (task id = jobId): Failed as its host stopped, never cancelled.
    const run = await api(b.url, 'GET', `/api/bundles/${handle}/runs/${task.id}`);
    expect(run.body).toMatchObject({ status: 'Failed', error: 'The host executing this run stopped.' });
    expectNoCrash([b]);
  }, 60_000);

  it('ends FAILED after a SIGTERM (exit 0) once another instance runs, and the model is not asked again', async () => {
    const current = cluster('a2a_term');
    const first = await current.serve('t1', A2A_ON);
    const handle = await register(first.url);
    const task = await workingTask(first, handle, 'a2a-stopped');

    expect(await current.sigterm(first), 'exit code of the SIGTERMed instance').toBe(0);
    model.release('a2a-stopped');
    const second = await current.serve('t2', A2A_ON);
    const client = await a2aClient(second.url, handle);
    const ended = await eventually(() => client.getTask({ tenant: '', id: task.id }), (read) => stateOf(read) !== 'TASK_STATE_WORKING' && stateOf(read) !== 'TASK_STATE_SUBMITTED', TAKEOVER_BOUND_MS + 10_000);
    expect(stateOf(ended)).toBe('TASK_STATE_FAILED');
    expect(model.asked('[a2a-stopped]'), 'a task is never replayed').toBe(1);
    expectNoCrash(current.instances);
  }, 60_000);
});
