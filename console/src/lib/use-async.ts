// Loads data for a page: value, error and a reload, with the request aborted when the page goes.
// `intervalMs` re-loads on a timer while the tab is visible (the "live" lists).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface AsyncState<T> {
  readonly value: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  reload(): void;
}

export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[], intervalMs?: number): AsyncState<T> {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: undefined, loading: true });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    let timer: number | undefined;
    const run = async (): Promise<void> => {
      try {
        const value = await loadRef.current(controller.signal);
        if (!controller.signal.aborted) setState({ value, error: undefined, loading: false });
      } catch (error) {
        if (!controller.signal.aborted) setState((previous) => ({ value: previous.value, error, loading: false }));
      }
      if (intervalMs !== undefined && !controller.signal.aborted) {
        timer = window.setTimeout(() => void (document.hidden ? schedule() : run()), intervalMs);
      }
    };
    const schedule = (): void => {
      timer = window.setTimeout(() => void (document.hidden ? schedule() : run()), intervalMs);
    };
    setState((previous) => ({ ...previous, loading: true }));
    void run();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [...deps, nonce, intervalMs]);

  return { ...state, reload };
}
