// How one request to a worker pool ended, as data: the pool never rejects. Callers word each way
// for their own audience (a tool failure, a step error, a 429).
export type WorkerOutcome =
  | { readonly status: 'done'; readonly value: unknown }
  /** The handler threw; `error` is its message. */
  | { readonly status: 'failed'; readonly error: string }
  /**
   * timeout: ran past the per-request time bound (its thread was stopped); aborted: the caller's signal
   * or close(); crashed: the thread died (e.g. its memory limit); busy: refused at once, nothing ran,
   * because the caller's or the pool's waiting line was full.
   */
  | { readonly status: 'timeout' | 'aborted' | 'crashed' | 'busy' };

export const ABORTED: WorkerOutcome = { status: 'aborted' };
export const BUSY: WorkerOutcome = { status: 'busy' };

/** A thread's reply (worker-protocol.ts) as an outcome; anything else is a failure, never a throw. */
export function toOutcome(reply: unknown): WorkerOutcome {
  if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
    if (reply.ok === true && 'value' in reply) return { status: 'done', value: reply.value };
    if (reply.ok === false && 'error' in reply && typeof reply.error === 'string') return { status: 'failed', error: reply.error };
  }
  return { status: 'failed', error: 'the worker sent a malformed reply' };
}
