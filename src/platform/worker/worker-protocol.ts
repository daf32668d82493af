// What a pool thread and its WorkerPool say to each other: the thread says where its CPU clock is, posts
// READY once its handler module has loaded, then for each request STARTED once the request is prepared and the work begins,
// and one reply. A handler module exports `handle`, which returns a structured-cloneable value or throws
// (the error's message becomes a failure), and may export `prepare`.
export const WORKER_READY = 'portcullis:ready';
export const WORKER_STARTED = 'portcullis:started';

/** Sent once, before READY: where the parent reads the thread's CPU time (thread-cpu-clock.ts), if anywhere. */
export interface ThreadHello {
  readonly cpuClock: string | null;
}

export function isThreadHello(message: unknown): message is ThreadHello {
  return typeof message === 'object' && message !== null && 'cpuClock' in message;
}

export type WorkerReply = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export interface WorkerHandlers {
  /**
   * Turns a request into what `handle` works on (e.g. parses the JSON text it carries). It has a time
   * bound of its own, so moving a large request's data never eats into the bound on the work.
   */
  readonly prepare?: (request: unknown) => unknown;
  readonly handle: (prepared: unknown) => unknown;
}

/** The sibling module `name` of `from`: `.js` once built, `.ts` when running from the sources (tests). */
export function siblingModule(name: string, from: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

/**
 * What a new thread starts from. Built, that is the entry module itself. From the sources (the tests
 * run them through vitest) it is TypeScript, and Node 20 does not pass the parent's loader on to worker
 * threads, so the thread first registers tsx (a devDependency, never reached from dist/) and then
 * imports the entry.
 */
export function threadStart(entry: URL): URL {
  if (!entry.pathname.endsWith('.ts')) return entry;
  const code = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
