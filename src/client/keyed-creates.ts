// Creates made safe to retry (DESIGN.md §14): every POST to a route that takes an Idempotency-Key gets
// one (a random UUID) unless the caller set its own, and is retried — with the same request, so the same
// key — when the connection failed before an answer, when the service answered 502, 503 or 504, or
// 409 `Request in progress` (after its Retry-After). A retry of a create that did run gets the first
// answer again (`Idempotent-Replayed: true`); nothing runs twice.
import { delay } from './delay.js';

const KEYED_ROUTES = [
  /^\/api\/bundles$/,
  /^\/api\/bundles\/[^/]+\/runs$/,
  /^\/api\/workflows$/,
  /^\/api\/workflows\/[^/]+\/runs$/,
  /^\/api\/workflows\/[^/]+\/runs\/[^/]+\/approvals\/[^/]+$/,
  /^\/api\/evals\/runs$/,
  /^\/api\/approvals\/[^/]+\/decision$/,
  /^\/api\/webhooks$/,
  /^\/api\/schedules$/,
];
const RETRIED_STATUSES = new Set([502, 503, 504]);

export interface KeyedCreateOptions {
  /** Retries after the first attempt (default 2); 0 still sends a key. */
  readonly retries: number;
  /** The first retry's delay in ms, doubled each time (default 250); a 409's Retry-After wins when longer. */
  readonly delayMs: number;
}

/** Whether a request is a create that takes an Idempotency-Key. */
export function isKeyedCreate(request: Request, baseUrl: string): boolean {
  if (request.method !== 'POST') return false;
  const path = new URL(request.url).pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length);
  return KEYED_ROUTES.some((route) => route.test(path));
}

/** Wraps `fetch`: keyed creates carry a key and are retried with it; every other request passes through. */
export function keyedCreates(fetchImpl: typeof globalThis.fetch, baseUrl: string, options: KeyedCreateOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!isKeyedCreate(request, baseUrl)) return fetchImpl(request);
    if (!request.headers.has('idempotency-key')) request.headers.set('idempotency-key', globalThis.crypto.randomUUID());
    for (let attempt = 0; ; attempt += 1) {
      const sending = attempt < options.retries ? request.clone() : request;
      let response: Response;
      try {
        response = await fetchImpl(sending);
      } catch (error) {
        if (attempt >= options.retries || request.signal.aborted) throw error;
        await delay(options.delayMs * 2 ** attempt, request.signal);
        continue;
      }
      const inProgress = response.status === 409 && (await titleOf(response)) === 'Request in progress';
      if (attempt >= options.retries || (!inProgress && !RETRIED_STATUSES.has(response.status))) return response;
      const retryAfterMs = Number(response.headers.get('retry-after') ?? 0) * 1000;
      await response.body?.cancel();
      await delay(Math.max(options.delayMs * 2 ** attempt, retryAfterMs), request.signal);
    }
  };
}

async function titleOf(response: Response): Promise<string | undefined> {
  try {
    const problem = (await response.clone().json()) as { title?: unknown };
    return typeof problem.title === 'string' ? problem.title : undefined;
  } catch {
    return undefined;
  }
}
