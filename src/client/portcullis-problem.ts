// The typed error every client call throws when the service answers with an RFC 7807 problem
// document (application/problem+json): status, type, title, detail, instance and traceId as
// fields, the whole document kept for extensions (`diagnostics`, `checks`). Never thrown for
// transport failures, which stay the fetch implementation's own errors.
import type { components } from './generated/openapi.js';

export type ProblemDocument = components['schemas']['ProblemDetails'] & { readonly traceId?: string; readonly [extension: string]: unknown };

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export class PortcullisProblem extends Error {
  override readonly name = 'PortcullisProblem';
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string;
  readonly traceId: string | undefined;
  /** `Retry-After` in seconds on 429 and 503, when the service sent it. */
  readonly retryAfterSeconds: number | undefined;

  constructor(readonly problem: ProblemDocument, options: { retryAfter?: string | null } = {}) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.traceId = typeof problem.traceId === 'string' ? problem.traceId : undefined;
    const retry = Number(options.retryAfter ?? Number.NaN);
    this.retryAfterSeconds = Number.isFinite(retry) ? retry : undefined;
  }

  /** The problem a response carries, or undefined when it is not a problem document. */
  static async from(response: Response): Promise<PortcullisProblem | undefined> {
    if (response.ok || !isProblemResponse(response)) return undefined;
    const body = (await response.clone().json()) as ProblemDocument;
    return new PortcullisProblem(body, { retryAfter: response.headers.get('retry-after') });
  }
}

export function isProblemResponse(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim() === PROBLEM_CONTENT_TYPE;
}

export function isPortcullisProblem(error: unknown): error is PortcullisProblem {
  return error instanceof PortcullisProblem;
}
