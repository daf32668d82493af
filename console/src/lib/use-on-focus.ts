// Calls back when the window regains focus (the viewer comes back to the tab or the browser), so
// figures that moved meanwhile are read anew instead of at the next poll.
import { useEffect, useRef } from 'preact/hooks';

export function useOnFocus(callback: () => void): void {
  const latest = useRef(callback);
  latest.current = callback;
  useEffect(() => {
    const onFocus = (): void => latest.current();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
}
