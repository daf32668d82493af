// Trailing-edge debounce for re-indexing: a burst of changes becomes one reload, a change during a
// reload becomes one more reload after it, and the timer never keeps the process alive.

export interface ReloadScheduler {
  /** Note a change; the reload runs `debounceMs` after the last one. */
  poke(): void;
  /** Resolves once no reload is running (a pending timer is not waited for). */
  idle(): Promise<void>;
  cancel(): void;
}

export function createReloadScheduler(debounceMs: number, reload: () => Promise<void>): ReloadScheduler {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let cancelled = false;

  const run = (): void => {
    timer = undefined;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (again && !cancelled) {
        again = false;
        run();
      }
    });
  };

  return {
    poke() {
      if (cancelled) return;
      clearTimeout(timer);
      timer = setTimeout(run, debounceMs);
      timer.unref();
    },
    async idle() {
      while (running !== undefined) await running;
    },
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
