// The RFC 7807 problem document as a schema, for the OpenAPI document and route responses.
import { Type } from '../vendor/typebox.js';
import { MAX_INSTANCE_LENGTH, PROBLEM_CONTENT_TYPE, problemCatalog } from '../problems/index.js';

function problemDescription(status: number): string {
  const titles = Object.values(problemCatalog).filter((entry) => entry.status === status).map((entry) => entry.title);
  return titles.length > 0 ? titles.join(' / ') : 'Problem';
}

export const ProblemDetailsSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ maxLength: MAX_INSTANCE_LENGTH, description: `The request path, cut to ${MAX_INSTANCE_LENGTH} characters.` }),
    traceId: Type.String({ description: 'The W3C trace id of the request when tracing is on, else its X-Request-Id.' }),
  },
  { $id: 'ProblemDetails', additionalProperties: true, description: 'RFC 7807 problem document (application/problem+json).' },
);

/** `{ 401: ProblemDetails, 429: … }` for a route's documented error statuses. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  const responses: Record<number, unknown> = {};
  for (const status of statuses) {
    // Documented under the media type the service actually sends (SPEC.md "Errors").
    responses[status] = {
      description: problemDescription(status),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: 'ProblemDetails#' } } },
    };
  }
  return responses;
}

/**
 * The 4xx a public, input-free GET can answer (the probes, /metrics, /openapi.json, the RFC 9728
 * metadata): the route itself refuses nothing (no token, no rate limit, no parameters, no body read),
 * so the only 4xx are those Node's HTTP parser sends before routing, without a body (DESIGN §10
 * exempts them from problem+json). Declared so the contract says what the route can answer.
 */
export const parserRefusalResponse = {
  '4XX': {
    description: 'Never sent by the route itself; only a request Node’s HTTP parser refuses before routing (400 malformed, 431 headers too large), with no body.',
    type: 'null',
  },
} as const;
