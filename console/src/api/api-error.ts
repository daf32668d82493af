// A refused API call as the console shows it: the RFC 7807 problem's title and detail (and workflow
// diagnostics, approval violations), never a stack or raw body.
import type { Diagnostic } from './types';

export interface Problem {
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly diagnostics?: readonly Diagnostic[];
  /** What a typed answer broke in an approval's responseSchema (a 400 from a decision). */
  readonly violations?: readonly string[];
  readonly retryAfterSeconds?: number;
}

export class ApiError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail === undefined ? problem.title : `${problem.title}: ${problem.detail}`);
    this.name = 'ApiError';
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

export async function problemOf(response: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page, an empty body): the status line is all there is.
  }
  const retry = Number(response.headers.get('retry-after'));
  return new ApiError({
    title: typeof body.title === 'string' ? body.title : response.statusText || `HTTP ${response.status}`,
    status: response.status,
    ...(typeof body.detail === 'string' ? { detail: body.detail } : {}),
    ...(Array.isArray(body.diagnostics) ? { diagnostics: body.diagnostics as Diagnostic[] } : {}),
    ...(Array.isArray(body.violations) ? { violations: body.violations.filter((item): item is string => typeof item === 'string') } : {}),
    ...(Number.isFinite(retry) && retry > 0 ? { retryAfterSeconds: retry } : {}),
  });
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
  return 'The service could not be reached.';
}
