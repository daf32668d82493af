import './route-config.js';

export { installAuthentication, principalOf, isApiRoute } from './authentication-hook.js';
export { installRateLimits } from './rate-limit-hook.js';
export { installIdempotency, admitIdempotent, sendReplay, bodyFingerprint, IdempotentReplay, IDEMPOTENCY_HEADER, IdempotencyHeadersSchema } from './idempotency-hook.js';
export { RequestLogController, ownerDigest } from './request-log.js';
export { buildResponseSerializers, immutableResponse } from './response-serializers.js';
export { installProblemHandlers, sendProblem, requestPath } from './problem-handlers.js';
export { clientErrorHandler } from './client-error-handler.js';
export { limitConnections, type ConnectionLimits } from './connection-limits.js';
export { parseJsonBody, jsonDepth, MAX_JSON_DEPTH } from './json-body-parser.js';
export { validationProblem, storageProblem } from './framework-errors.js';
export { ProblemDetailsSchema, parserRefusalResponse, problemResponses } from './problem-schema.js';
export type { App } from './app-type.js';
export { PathId } from './path-id.js';
export { requestOrigin } from './request-origin.js';
export { PageQuerySchema, listValidatorCompiler, pageOf, type PageQuery, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './page-query.js';
export { installRequestIds, generateRequestId, requestIdFrom, traceIdOf, REQUEST_ID_HEADER, SHUTTING_DOWN_DETAIL } from './request-id.js';
export { HttpRequestMetrics, UNMATCHED_ROUTE } from './http-request-metrics.js';
