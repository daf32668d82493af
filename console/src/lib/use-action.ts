// What a page's button starts (send a test event, disable, delete): whether it is under way, what it
// said when it was done, or the problem that stopped it — one at a time, each clearing the last.
import { useState } from 'preact/hooks';

export interface Action {
  readonly busy: boolean;
  /** What the last action said when it succeeded (for a role="status" line). */
  readonly said: string | null;
  readonly error: unknown;
  /** Runs `act`; the text it resolves to, if any, becomes `said`; what it throws becomes `error`. */
  readonly run: (act: () => Promise<string | void>) => Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (act: () => Promise<string | void>): Promise<void> => {
    setBusy(true);
    setSaid(null);
    setError(undefined);
    try {
      setSaid((await act()) ?? null);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { busy, said, error, run };
}
