// The one problem catalog: every problem the service can answer, with its status, title and type.
// Typed as Record<ProblemCode, …> so a code without an entry does not compile. Titles are SPEC.md's.

export type ProblemCode =
  | 'validation-failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'run-not-streamable'
  | 'conflict'
  | 'request-timeout'
  | 'payload-too-large'
  | 'header-fields-too-large'
  | 'rate-limited'
  | 'internal'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'request-in-progress'
  | 'idempotency-key-reused'
  | 'run-not-recordable';

export interface ProblemEntry {
  readonly status: number;
  readonly title: string;
  /** What the problem means, for docs/reference/errors.md and the OpenAPI description. */
  readonly meaning: string;
}

export const PROBLEM_TYPE_PREFIX = 'urn:portcullis:problem:';

export const problemCatalog: Readonly<Record<ProblemCode, ProblemEntry>> = Object.freeze({
  'validation-failed': { status: 400, title: 'Validation failed', meaning: 'The request is malformed or breaks a documented limit (an oversized body included, except on direct invocation); not retryable as-is.' },
  unauthorized: { status: 401, title: 'Unauthorized', meaning: 'No valid bearer token, or a token with no usable identity.' },
  forbidden: { status: 403, title: 'Forbidden', meaning: 'The surface is disabled, a role is missing, or governance refused.' },
  'not-found': { status: 404, title: 'Not found', meaning: 'Unknown, expired or another caller’s resource; indistinguishable by design.' },
  'method-not-allowed': { status: 405, title: 'Method not allowed', meaning: 'The path exists but not with this method; `Allow` lists the methods.' },
  'request-timeout': { status: 408, title: 'Request timeout', meaning: 'The request line, headers or body did not arrive in time; the connection is closed.' },
  'run-not-streamable': { status: 409, title: 'Run not streamable', meaning: 'The bundle run is not a queued run reserved for a stream.' },
  conflict: { status: 409, title: 'Conflict', meaning: 'The resource is in a state that forbids the operation (live run, finished run, cap reached).' },
  'payload-too-large': { status: 413, title: 'Payload too large', meaning: 'Direct tool invocation only: the body is over DirectToolInvocation:MaxRequestBytes, refused before reading. Every other route answers an oversized body with 400.' },
  'rate-limited': { status: 429, title: 'Too many requests', meaning: 'A rate limit or concurrency cap was reached; `Retry-After` says when to retry.' },
  'header-fields-too-large': {
    status: 431,
    title: 'Request header fields too large',
    meaning: 'The request headers are larger than the host reads; the connection is closed.',
  },
  internal: { status: 500, title: 'Bundle operation failed', meaning: 'An unexpected error; the details are in the host log only.' },
  unavailable: { status: 503, title: 'Service unavailable', meaning: 'A stream ceiling of the host or the caller was reached, the storage or the identity provider cannot be reached, or the service is shutting down; retry later.' },
  'deadline-exceeded': { status: 504, title: 'Deadline exceeded', meaning: 'A direct tool invocation ran past its deadline.' },
  'request-in-progress': {
    status: 409,
    title: 'Request in progress',
    meaning: 'A request with this Idempotency-Key is still being answered; retry once it has been (DESIGN §14).',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'Idempotency key reused',
    meaning: 'This Idempotency-Key was already used for a request with another body; use a new key for a new request.',
  },
  'run-not-recordable': {
    status: 422,
    title: 'Run not recordable',
    meaning: 'The finished bundle run cannot become an eval case: frames of it were withheld above the frame ceiling, or it has nothing to record (DESIGN §19).',
  },
});

export const problemCodes = Object.keys(problemCatalog) as ProblemCode[];

export function problemType(code: ProblemCode): string {
  return `${PROBLEM_TYPE_PREFIX}${code}`;
}
