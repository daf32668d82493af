// One delivery attempt over HTTP: the destination vetted again (allowlist, resolution, the address
// connected to), a POST of the stored body with the Standard Webhooks headers, 10 s at most, no
// redirect followed. Answers the response status (null when refused or unreachable) and how long it took;
// a response body is never kept.
import { performance } from 'node:perf_hooks';
import { deadlineSignal } from '../platform/abort/index.js';
import { sendRequest } from '../tools/builtin/http-fetch/index.js';
import type { DestinationPolicy } from './destination-policy.js';
import { signWebhook } from './webhook-secret.js';

/** DESIGN.md §14: an attempt that has not answered in 10 s failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Enough of a response to see its status; the rest is not read. */
const MAX_RESPONSE_BYTES = 1_024;

export interface WebhookAttempt {
  readonly url: string;
  readonly secret: string;
  readonly eventId: string;
  readonly body: string;
  /** `webhook-timestamp`: when this attempt is made, in seconds. */
  readonly timestampSeconds: number;
}

export interface AttemptResult {
  readonly responseStatus: number | null;
  readonly durationMs: number;
  /** The receiver did not answer within the attempt's timeout (it held a slot all that time). */
  readonly timedOut: boolean;
}

export async function sendWebhook(
  attempt: WebhookAttempt,
  policy: DestinationPolicy,
  signal: AbortSignal,
  timeoutMs: number = ATTEMPT_TIMEOUT_MS,
): Promise<AttemptResult> {
  const started = performance.now();
  const deadline = deadlineSignal(signal, timeoutMs);
  const within = deadline.signal;
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    const url = new URL(attempt.url);
    const target = await policy.vet(url, within);
    if (!target.ok) return { responseStatus: null, durationMs: elapsed(), timedOut: deadline.timedOut };
    const body = Buffer.from(attempt.body, 'utf8');
    const response = await sendRequest({
      url,
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'Portcullis-Webhooks',
        'webhook-id': attempt.eventId,
        'webhook-timestamp': String(attempt.timestampSeconds),
        'webhook-signature': signWebhook(attempt.secret, attempt.eventId, attempt.timestampSeconds, attempt.body),
      },
      host: target.host,
      address: target.address,
      family: target.family,
      maxBytes: MAX_RESPONSE_BYTES,
      signal: within,
    });
    return { responseStatus: response.status, durationMs: elapsed(), timedOut: false };
  } catch {
    if (signal.aborted) throw signal.reason;
    return { responseStatus: null, durationMs: elapsed(), timedOut: deadline.timedOut };
  } finally {
    deadline.clear();
  }
}
