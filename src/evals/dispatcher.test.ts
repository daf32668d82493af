import { describe, expect, it } from 'vitest';
import { EvalDispatcher, MAX_EXECUTING_RUNS } from './dispatcher.js';
import type { ActiveRun } from './eval-run.js';

function run(jobId: string, ownerId: string): ActiveRun {
  return { jobId, ownerId } as ActiveRun;
}

function harness() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const dispatcher = new EvalDispatcher(
    (r) =>
      new Promise<void>((resolve) => {
        started.push(r.jobId);
        finish.set(r.jobId, resolve);
      }),
  );
  return { dispatcher, started, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EvalDispatcher', () => {
  it('runs one run per owner at a time; the next of that owner starts when it finishes', async () => {
    const { dispatcher, started, finish } = harness();
    dispatcher.enqueue(run('a1', 'alice'));
    dispatcher.enqueue(run('a2', 'alice'));
    dispatcher.enqueue(run('b1', 'bob'));
    expect(started).toEqual(['a1', 'b1']);
    finish.get('a1')!();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it(`executes at most ${MAX_EXECUTING_RUNS} runs host-wide, first come first served`, async () => {
    const { dispatcher, started, finish } = harness();
    for (let i = 0; i <= MAX_EXECUTING_RUNS; i += 1) dispatcher.enqueue(run(`r${i}`, `owner${i}`));
    expect(started).toHaveLength(MAX_EXECUTING_RUNS);
    finish.get('r0')!();
    await settle();
    expect(started.at(-1)).toBe(`r${MAX_EXECUTING_RUNS}`);
  });

  it('withdraws a queued run, but not one that already started', () => {
    const { dispatcher, started } = harness();
    const first = run('a1', 'alice');
    const second = run('a2', 'alice');
    dispatcher.enqueue(first);
    dispatcher.enqueue(second);
    expect(dispatcher.withdraw(first)).toBe(false);
    expect(dispatcher.withdraw(second)).toBe(true);
    expect(dispatcher.withdraw(second)).toBe(false);
    expect(started).toEqual(['a1']);
  });

  it('starts nothing after stop and waits for the runs in flight', async () => {
    const { dispatcher, started, finish } = harness();
    dispatcher.enqueue(run('a1', 'alice'));
    dispatcher.enqueue(run('a2', 'alice'));
    const stopped = dispatcher.stop();
    finish.get('a1')!();
    await stopped;
    dispatcher.enqueue(run('b1', 'bob'));
    expect(started).toEqual(['a1']);
  });
});
