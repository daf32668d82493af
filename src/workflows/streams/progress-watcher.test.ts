// The per-watcher bounded buffer between the run's journal and the socket.
import { describe, expect, it } from 'vitest';
import { ProgressWatcher } from './progress-watcher.js';

function step(seq: number) {
  return { seq, event: { type: 'STEP' as const, stepName: `s${seq}`, stepId: `id${seq}`, status: 'Running' as const } };
}

describe('ProgressWatcher', () => {
  it('drops the oldest frames when full and reports them with one GAP first, then frames carrying their sequence', () => {
    const watcher = new ProgressWatcher(2);
    for (let seq = 1; seq <= 5; seq += 1) watcher.push(step(seq));
    expect(watcher.next()).toEqual({ frame: { type: 'GAP', droppedCount: 3 }, id: 3 });
    expect(watcher.next()).toEqual({ id: 4, frame: { type: 'STEP', sequence: 4, stepName: 's4', stepId: 'id4', status: 'Running' } });
    expect(watcher.next()).toMatchObject({ id: 5, frame: { sequence: 5 } });
    expect(watcher.next()).toBeUndefined();
  });

  it('wakes a waiting reader on push', async () => {
    const watcher = new ProgressWatcher(4);
    const waiting = watcher.wait(new AbortController().signal);
    watcher.push(step(1));
    await waiting;
    expect(watcher.size).toBe(1);
  });
});
