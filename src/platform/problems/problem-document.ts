// Turns a ProblemError (or anything unknown) into an RFC 7807 document. Unknown errors become the
// generic 500 with a fixed detail: exception text never reaches a response.
import { problemCatalog, problemType, type ProblemCode } from './catalog.js';
import { isProblemError } from './problem-error.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const GENERIC_INTERNAL_DETAIL = 'An unexpected error occurred. The host log has the details.';

export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance: string;
  readonly [extension: string]: unknown;
}

export interface RenderedProblem {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ProblemDocument;
}

/**
 * The document; `traceId` (DESIGN §12: the request's trace id, or its request id) comes last when
 * given. Extensions come first so they can never overwrite the standard members.
 */
export function problemDocument(
  code: ProblemCode,
  detail: string,
  instance: string,
  extensions: Readonly<Record<string, unknown>> = {},
  traceId?: string,
): ProblemDocument {
  const entry = problemCatalog[code];
  const body: ProblemDocument = { ...extensions, type: problemType(code), title: entry.title, status: entry.status, detail, instance: bounded(instance) };
  return traceId === undefined ? body : { ...body, traceId };
}

/** `instance` echoes the request path; a caller's kilobytes of path are not echoed back whole. */
export const MAX_INSTANCE_LENGTH = 256;

/** The path cut to MAX_INSTANCE_LENGTH, never inside a %-escape or a surrogate pair. */
function bounded(instance: string): string {
  if (instance.length <= MAX_INSTANCE_LENGTH) return instance;
  let cut = instance.slice(0, MAX_INSTANCE_LENGTH);
  const escape = cut.lastIndexOf('%');
  if (escape > MAX_INSTANCE_LENGTH - 3) cut = cut.slice(0, escape);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export function toProblem(error: unknown, instance: string, traceId?: string): RenderedProblem {
  if (isProblemError(error)) {
    return {
      status: problemCatalog[error.code].status,
      headers: error.headers,
      body: problemDocument(error.code, error.detail, instance, error.extensions, traceId),
    };
  }
  return { status: 500, headers: {}, body: problemDocument('internal', GENERIC_INTERNAL_DETAIL, instance, {}, traceId) };
}
