import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startStallMonitor } from './event-loop-stalls.js';

/** This thread's CPU time in ms (Linux): a stall of known size however loaded the machine is. */
const cpuMs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;

describe.runIf(process.platform === 'linux')('the event-loop stall monitor', () => {
  it('sees the loop held by 80 ms of work, and neither a quiet loop nor a thread asleep as work', async () => {
    const working = startStallMonitor();
    const from = cpuMs();
    while (cpuMs() - from < 80) {
      // holding the loop, as a blocking request would
    }
    await working.nextTurn();
    const worked = working.stop();
    expect(worked).toMatchObject({ cpuTime: true });
    expect(worked.maxMs).toBeGreaterThanOrEqual(75);

    const quiet = startStallMonitor();
    for (let turn = 0; turn < 20; turn += 1) await quiet.nextTurn();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 80);
    await quiet.nextTurn();
    expect(quiet.stop().maxMs).toBeLessThan(50);
  });
});
