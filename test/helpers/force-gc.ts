// A full garbage collection on demand, inside a vitest worker started without --expose-gc: V8's flag
// is switched on at run time and `gc` is taken from a fresh context, where V8 installs it. The tests
// that prove a deadline survives a collection call it while a request hangs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Runs full collections every `everyMs` until the returned stop is called. */
export function collectRepeatedly(everyMs: number): () => void {
  collect();
  const timer = setInterval(collect, everyMs);
  return () => clearInterval(timer);
}

export function forceGc(): void {
  collect();
}
