// The error every layer throws to mean "answer with this problem". Carries a stable code and a
// caller-safe detail; `cause` is kept for the log and never serialised.
import type { ProblemCode } from './catalog.js';

export interface ProblemErrorOptions {
  /** Extra members of the problem document (e.g. `diagnostics`); must be caller-safe. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** Response headers that belong to this problem (`Retry-After`, `Allow`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly detail: string;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ProblemCode, detail: string, options: ProblemErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.detail = detail;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

export function isProblemError(value: unknown): value is ProblemError {
  return value instanceof ProblemError;
}
