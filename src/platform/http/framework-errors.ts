// Maps what Fastify itself throws (validation, body limits, content types, malformed bodies) onto
// the problem catalog. Fastify's own messages never reach a response: each case gets a fixed,
// caller-safe detail, and validation details name the field without echoing its value.
import type { FastifyError, FastifyRequest } from 'fastify';
import { ProblemError, isProblemError } from '../problems/index.js';
import { redactText } from '../redaction/index.js';
import { isStorageUnavailable } from '../storage/storage-unavailable.js';

interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

const MAX_DETAIL_ISSUES = 5;

function describeIssue(context: string, issue: ValidationIssue): string {
  const where = `${context}${issue.instancePath ?? ''}`;
  if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
    return `${where} has an unknown property '${issue.params.additionalProperty.slice(0, 64)}'`;
  }
  return `${where} ${issue.message ?? 'is invalid'}`;
}

export function validationProblem(context: string, issues: readonly ValidationIssue[]): ProblemError {
  const named = issues.slice(0, MAX_DETAIL_ISSUES).map((issue) => describeIssue(context, issue));
  const more = issues.length > MAX_DETAIL_ISSUES ? ` (and ${issues.length - MAX_DETAIL_ISSUES} more)` : '';
  return new ProblemError('validation-failed', redactText(`${named.join('; ')}${more}.`));
}

export function mapFrameworkError(error: unknown, request: FastifyRequest): unknown {
  if (isProblemError(error)) return error;
  // The database is unreachable: a 503 the caller may retry, the driver's text kept for the log.
  if (isStorageUnavailable(error)) return new ProblemError('unavailable', 'The service cannot reach its storage right now; try again shortly.');
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    return validationProblem(fastifyError.validationContext ?? 'request', fastifyError.validation);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return request.routeOptions.config.oversizeStatus === 413
        ? new ProblemError('payload-too-large', 'The request body is larger than this route accepts.')
        : new ProblemError('validation-failed', 'The request body is larger than this route accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('validation-failed', 'The request Content-Type is not accepted by this route.');
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
