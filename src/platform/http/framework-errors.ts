// Maps what Fastify itself throws (validation, body limits, content types, malformed bodies) and the
// storage port's refusals (unreachable storage → 503 with Retry-After, a forged list cursor → 400)
// onto the problem catalog. Fastify's own messages never reach a response: each case gets a fixed,
// caller-safe detail, and validation details name the field without echoing its value.
import type { FastifyError, FastifyRequest } from 'fastify';
import { ProblemError, isProblemError } from '../problems/index.js';
import { redactText } from '../redaction/index.js';
import { InvalidCursorError, isStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../storage/index.js';
import { routeOf } from './route-config.js';

interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

const MAX_DETAIL_ISSUES = 5;

/** Says what to send: every body here is JSON except a bundle upload. */
const CONTENT_TYPE_DETAIL =
  'The request Content-Type is missing or not accepted by this route: send Content-Type: application/json (bundle uploads take multipart/form-data).';

function describeIssue(context: string, issue: ValidationIssue): string {
  const where = `${context}${issue.instancePath ?? ''}`;
  if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
    return `${where} has an unknown property '${issue.params.additionalProperty.slice(0, 64)}'`;
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `${where} must be one of: ${issue.params.allowedValues.map((value) => String(value).slice(0, 64)).join(', ')}`;
  }
  return `${where} ${issue.message ?? 'is invalid'}`;
}

export function validationProblem(context: string, issues: readonly ValidationIssue[]): ProblemError {
  const named = issues.slice(0, MAX_DETAIL_ISSUES).map((issue) => describeIssue(context, issue));
  const more = issues.length > MAX_DETAIL_ISSUES ? ` (and ${issues.length - MAX_DETAIL_ISSUES} more)` : '';
  return new ProblemError('validation-failed', redactText(`${named.join('; ')}${more}.`));
}

/** The storage port's refusals as the problems every surface answers them with (503, a forged cursor's 400); else undefined. */
export function storageProblem(error: unknown): ProblemError | undefined {
  if (isStorageUnavailable(error)) {
    return new ProblemError('unavailable', 'The service cannot reach its storage right now; try again shortly.', { headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) } });
  }
  if (error instanceof InvalidCursorError) return new ProblemError('validation-failed', 'The cursor is not one this service issued; start again without it.');
  return undefined;
}

export function mapFrameworkError(error: unknown, request: FastifyRequest): unknown {
  if (isProblemError(error)) return error;
  const storage = storageProblem(error);
  if (storage !== undefined) return storage;
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    // A path id outside its declared limits names nothing that can exist: not found, never a 400
    // (the routes' documented statuses are SPEC.md's, and an over-long id is simply unknown).
    if (fastifyError.validationContext === 'params') return new ProblemError('not-found', 'No resource exists at this path.');
    return validationProblem(fastifyError.validationContext ?? 'request', fastifyError.validation);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return routeOf(request).oversizeStatus === 413
        ? new ProblemError('payload-too-large', 'The request body is larger than this route accepts.')
        : new ProblemError('validation-failed', 'The request body is larger than this route accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('validation-failed', CONTENT_TYPE_DETAIL);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError('validation-failed', 'The request body is empty; a JSON document was expected.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError('validation-failed', 'The Content-Length header does not match the body.');
    default:
      break;
  }
  const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) return new ProblemError('validation-failed', 'The request is malformed.');
  return error;
}
