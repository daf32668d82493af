// The RFC 7807 problem document as a schema, for the OpenAPI document and route responses.
import { Type } from 'typebox';
import { problemCatalog } from '../problems/index.js';

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
    instance: Type.String(),
  },
  { $id: 'ProblemDetails', additionalProperties: true, description: 'RFC 7807 problem document (application/problem+json).' },
);

/** `{ 401: ProblemDetails, 429: … }` for a route's documented error statuses. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  const responses: Record<number, unknown> = {};
  for (const status of statuses) {
    responses[status] = { $ref: 'ProblemDetails#', description: problemDescription(status) };
  }
  return responses;
}
