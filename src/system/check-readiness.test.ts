// Readiness answers within a second whatever a dependency does: a check that never answers (a frozen
// database) counts as failing once READINESS_CHECK_MS passed; one that throws counts as failing at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkReadiness, READINESS_CHECK_MS } from './routes.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('checkReadiness', () => {
  it('counts a check that never answers as failing after its deadline, and keeps the others’ verdicts', async () => {
    vi.useFakeTimers();
    let settled: Record<string, boolean> | undefined;
    const checking = checkReadiness([
      { category: 'identity', check: async () => true },
      { category: 'storage', check: () => new Promise<boolean>(() => undefined) },
      { category: 'datasetRoots', check: () => Promise.reject(new Error('gone')) },
    ]).then((result) => (settled = result));
    await vi.advanceTimersByTimeAsync(READINESS_CHECK_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await checking;
    expect(settled).toEqual({ identity: true, storage: false, datasetRoots: false });
    expect(READINESS_CHECK_MS).toBeLessThan(1_000);
  });
});
