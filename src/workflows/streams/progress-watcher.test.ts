// The per-watcher bounded buffer and the run log it reads from.
import { describe, expect, it } from 'vitest';
import { RunLog } from '../runs/run-log.js';
import { ProgressWatcher } from './progress-watcher.js';

function step(sequence: number) {
  return { type: 'STEP' as const, sequence, stepName: `s${sequence}`, stepId: `id${sequence}`, status: 'Running' as const };
}

describe('ProgressWatcher', () => {
  it('drops the oldest frames when full and reports them with one GAP first', () => {
    const log = new RunLog(100);
    const watcher = new ProgressWatcher(2);
    log.subscribe((entry) => watcher.push(entry));
    for (let i = 0; i < 5; i += 1) log.append(step);
    expect(watcher.next()).toEqual({ frame: { type: 'GAP', droppedCount: 3 }, id: 3 });
    expect(watcher.next()).toMatchObject({ id: 4, frame: { sequence: 4 } });
    expect(watcher.next()).toMatchObject({ id: 5 });
    expect(watcher.next()).toBeUndefined();
  });

  it('wakes a waiting reader on push', async () => {
    const log = new RunLog(10);
    const watcher = new ProgressWatcher(4);
    log.subscribe((entry) => watcher.push(entry));
    const waiting = watcher.wait(new AbortController().signal);
    log.append(step);
    await waiting;
    expect(watcher.size).toBe(1);
  });
});

describe('RunLog', () => {
  it('numbers frames from 1, builds each frame once, and answers what it still holds after a sequence', () => {
    const log = new RunLog(3);
    let built = 0;
    for (let i = 0; i < 5; i += 1) {
      log.append((sequence) => {
        built += 1;
        return step(sequence);
      });
    }
    expect(built).toBe(0);
    expect(log.lastSequence).toBe(5);
    expect(log.firstRetained).toBe(3);
    expect(log.since(2)!.map((e) => e.sequence)).toEqual([3, 4, 5]);
    expect(log.since(1)).toBeUndefined();
    expect(log.since(5)).toEqual([]);
    const entry = log.since(4)![0]!;
    expect(entry.frame()).toBe(entry.frame());
    expect(built).toBe(1);
  });
});
