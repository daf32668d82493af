import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TRACKED_REASONS, OTHER_REASONS, REFUSAL_MESSAGE, RefusalLog } from './refusal-log.js';

const lines: Array<{ object: object; message: string }> = [];
const log = { warn: (object: object, message: string) => void lines.push({ object, message }) };

beforeEach(() => {
  vi.useFakeTimers();
  lines.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('RefusalLog', () => {
  it('logs the first refusal of a reason at once and one line with the count per later interval', () => {
    const refusals = new RefusalLog(log, 60_000);
    for (let i = 0; i < 10_000; i += 1) refusals.record('signature verification failed', `sha256:${i}`);
    expect(lines).toEqual([{ object: { event: 'auth.token.refused', category: 'other', reason: 'signature verification failed', count: 1, token: 'sha256:0' }, message: REFUSAL_MESSAGE }]);
    vi.advanceTimersByTime(59_999);
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(lines[1]).toEqual({ object: { event: 'auth.token.refused', category: 'other', reason: 'signature verification failed', count: 9_999, token: 'sha256:9999' }, message: REFUSAL_MESSAGE });
    refusals.record('signature verification failed', 'sha256:late');
    vi.advanceTimersByTime(60_000);
    expect(lines[2]!.object).toEqual({ event: 'auth.token.refused', category: 'other', reason: 'signature verification failed', count: 1, token: 'sha256:late' });
    // A quiet interval closes the window; the next refusal is logged at once again.
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(3);
    refusals.record('signature verification failed', 'sha256:again');
    expect(lines[3]!.object).toEqual({ event: 'auth.token.refused', category: 'other', reason: 'signature verification failed', count: 1, token: 'sha256:again' });
    expect(vi.getTimerCount()).toBe(1);
    refusals.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts each reason on its own', () => {
    const refusals = new RefusalLog(log, 1_000);
    for (let i = 0; i < 5; i += 1) {
      refusals.record('expired', null);
      refusals.record('bad audience', null);
    }
    expect(lines.map((line) => line.object)).toEqual([
      { event: 'auth.token.refused', category: 'other', reason: 'expired', count: 1, token: null },
      { event: 'auth.token.refused', category: 'other', reason: 'bad audience', count: 1, token: null },
    ]);
    vi.advanceTimersByTime(1_000);
    expect(lines.slice(2).map((line) => line.object)).toEqual([
      { event: 'auth.token.refused', category: 'other', reason: 'expired', count: 4, token: null },
      { event: 'auth.token.refused', category: 'other', reason: 'bad audience', count: 4, token: null },
    ]);
    refusals.close();
  });

  it('reports what is still counted when closed', () => {
    const refusals = new RefusalLog(log, 60_000);
    refusals.record('r', 'a');
    refusals.record('r', 'b');
    refusals.close();
    expect(lines.map((line) => line.object)).toEqual([
      { event: 'auth.token.refused', category: 'other', reason: 'r', count: 1, token: 'a' },
      { event: 'auth.token.refused', category: 'other', reason: 'r', count: 1, token: 'b' },
    ]);
  });

  it('tracks a bounded number of distinct reasons and counts the rest together', () => {
    const refusals = new RefusalLog(log, 60_000);
    for (let i = 0; i < MAX_TRACKED_REASONS + 100; i += 1) refusals.record(`reason ${i}`, null);
    expect(lines).toHaveLength(MAX_TRACKED_REASONS + 1);
    expect(lines.at(-1)!.object).toEqual({ event: 'auth.token.refused', category: 'other', reason: OTHER_REASONS, count: 1, token: null });
    expect(vi.getTimerCount()).toBe(MAX_TRACKED_REASONS + 1);
    refusals.close();
    expect(lines.at(-1)!.object).toEqual({ event: 'auth.token.refused', category: 'other', reason: OTHER_REASONS, count: 99, token: null });
  });
});
