// Runs work items with at most `concurrency` in flight, all drawing from one queue (every case ×
// repeat of a run shares the run's `parallelism`). Workers stop taking items after a failure, or once
// `stop` aborts (what is in flight finishes); the first failure is rethrown once everything in flight
// has settled. Resolves with how many items were taken.
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>, stop?: AbortSignal): Promise<number> {
  let next = 0;
  let failure: { readonly error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length && stop?.aborted !== true) {
      const index = next;
      next += 1;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(0, Math.min(concurrency, items.length)) }, worker));
  if (failure !== null) throw (failure as { readonly error: unknown }).error;
  return next;
}
