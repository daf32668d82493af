// Default change feed for a knowledge root: a recursive fs.watch that never keeps the process alive.
// Events carry no meaning beyond "something changed"; the index is rebuilt from disk either way.
import { watch } from 'node:fs';

/** Calls `onChange` on any change under `root`; returns a function that stops watching. */
export type WatchRoot = (root: string, onChange: () => void, onError: (error: unknown) => void) => () => void;

export const watchRoot: WatchRoot = (root, onChange, onError) => {
  const watcher = watch(root, { recursive: true, persistent: false }, () => onChange());
  watcher.on('error', onError);
  return () => watcher.close();
};
