// Turns whatever a provider call threw into a caller-safe ChatModelError plus the facts the retry
// loop and the log need. Messages come from a fixed table; upstream bodies and upstream error
// messages (which may echo the API key) are never copied into the message, the cause or the log.
import { APICallError } from '@ai-sdk/provider';
import { ChatModelError, type ChatModelErrorCode } from './chat-model.js';
import { UpstreamHttpError } from './upstream-http-error.js';
import { UpstreamStreamError } from './upstream-stream-error.js';

export interface ModelFailure {
  readonly error: ChatModelError;
  readonly retryable: boolean;
  /** Lower-cased response headers of an HTTP failure (for Retry-After). */
  readonly headers: Readonly<Record<string, string>>;
  /** Safe facts for the log: HTTP status, error class name, network error code. */
  readonly detail: { readonly status?: number; readonly errorName: string; readonly networkCode?: string };
}

export interface CallState {
  readonly cancelled: boolean;
  readonly timedOut: boolean;
}

const MESSAGES = {
  timeout: 'The chat model timed out.',
  'rate-limited': 'The chat model is rate limited.',
  unavailable: 'The chat model is unavailable.',
  unreachable: 'The chat model could not be reached.',
  authentication: 'The chat model rejected the credentials.',
  'bad-request': 'The chat model rejected the request.',
  'invalid-response': 'The chat model sent an invalid response.',
  aborted: 'The chat model request was cancelled.',
} as const;

const INVALID_RESPONSE_ERRORS = new Set([
  'AI_TypeValidationError',
  'AI_JSONParseError',
  'AI_InvalidResponseDataError',
  'AI_EmptyResponseBodyError',
]);
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

export function classifyModelError(error: unknown, state: CallState): ModelFailure {
  const errorName = error instanceof Error ? error.name : typeof error;
  if (error instanceof ChatModelError) return { error, retryable: false, headers: {}, detail: { errorName } };
  if (state.cancelled) return failure('aborted', MESSAGES.aborted, false, { errorName });
  if (state.timedOut) return failure('timeout', MESSAGES.timeout, false, { errorName });
  if (APICallError.isInstance(error)) return fromHttpExchange(error.statusCode, error.responseHeaders ?? {}, error.cause, error.name);
  if (error instanceof UpstreamHttpError) return fromHttpExchange(error.status, error.headers, error.cause, error.name);
  if (error instanceof UpstreamStreamError) {
    // A chunk that failed to parse arrives as an Error payload; an upstream error event as data.
    return error.payload instanceof Error ? classifyModelError(error.payload, state) : fromStreamPayload(error.payload);
  }
  if (INVALID_RESPONSE_ERRORS.has(errorName)) {
    return failure('invalid-response', MESSAGES['invalid-response'], false, { errorName });
  }
  const networkCode = findNetworkCode(error);
  if (networkCode !== undefined || isTerminatedFetch(error)) {
    return failure('unavailable', MESSAGES.unreachable, true, { errorName, networkCode });
  }
  // Local failures before the request (prompt conversion, unsupported parts) and anything unknown.
  return failure('bad-request', MESSAGES['bad-request'], false, { errorName });
}

/** An HTTP exchange that failed (the SDK's APICallError or our UpstreamHttpError): judged by its status. */
function fromHttpExchange(
  status: number | undefined,
  headers: Readonly<Record<string, string>>,
  cause: unknown,
  errorName: string,
): ModelFailure {
  const networkCode = findNetworkCode(cause);
  const detail = { status, errorName, networkCode };
  if (status === undefined) return failure('unavailable', MESSAGES.unreachable, true, detail, headers);
  // A failure while reading a 200 body: the connection dropped, or the body did not parse.
  if (status < 300) {
    return networkCode !== undefined || isTerminatedFetch(cause)
      ? failure('unavailable', MESSAGES.unavailable, true, detail, headers)
      : failure('invalid-response', MESSAGES['invalid-response'], false, detail, headers);
  }
  if (status === 429) return failure('rate-limited', MESSAGES['rate-limited'], true, detail, headers);
  if (status === 408) return failure('timeout', MESSAGES.timeout, true, detail, headers);
  if (status >= 500) return failure('unavailable', MESSAGES.unavailable, true, detail, headers);
  if (status === 401 || status === 403) return failure('authentication', MESSAGES.authentication, false, detail, headers);
  return failure('bad-request', MESSAGES['bad-request'], false, detail, headers);
}

/** An error event inside a 200 stream: judged by its `type`/`code`, never by its message. */
function fromStreamPayload(payload: unknown): ModelFailure {
  const record = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const kind = [record.type, record.code].filter((v) => typeof v === 'string' || typeof v === 'number').join(' ').toLowerCase();
  const detail = { errorName: 'UpstreamStreamError' };
  if (kind.includes('rate_limit')) return failure('rate-limited', MESSAGES['rate-limited'], true, detail);
  if (kind.includes('authentication') || kind.includes('permission')) {
    return failure('authentication', MESSAGES.authentication, false, detail);
  }
  if (kind.includes('invalid_request')) return failure('bad-request', MESSAGES['bad-request'], false, detail);
  return failure('unavailable', MESSAGES.unavailable, true, detail);
}

function failure(
  code: ChatModelErrorCode,
  message: string,
  retryable: boolean,
  detail: ModelFailure['detail'],
  headers: Readonly<Record<string, string>> = {},
): ModelFailure {
  const safeDetail = Object.fromEntries(Object.entries(detail).filter(([, v]) => v !== undefined));
  return { error: new ChatModelError(code, message, { cause: safeDetail }), retryable, headers, detail };
}

function findNetworkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODE.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/** undici rejects a body read with `TypeError: terminated` when the socket drops mid-stream. */
function isTerminatedFetch(error: unknown): boolean {
  return error instanceof TypeError && (error.message === 'terminated' || error.message === 'fetch failed');
}
