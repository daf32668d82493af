// The OpenAPI 3.1 document's frame: version 2.0.0 (SPEC.md "Versioning"), the bearer scheme applied
// to every route unless the route opts out, and the tags the families use. Routes supply the rest.
import type { SwaggerOptions } from '@fastify/swagger';

export const API_VERSION = '2.0.0';

export function buildOpenApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portcullis',
        version: API_VERSION,
        description:
          'A governed HTTP front door for automation the host did not write: bundles, workflows, tools and evals ' +
          'under one bearer-token authentication, one ownership rule and one capability envelope. Errors are RFC 7807 ' +
          'problem documents (application/problem+json).',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT for audience api://{ClientId}.' },
        },
      },
      security: [{ bearer: [] }],
      tags: [
        { name: 'System', description: 'Public liveness, readiness and this document.' },
        { name: 'Capabilities', description: 'What the caller’s envelope grants, and why.' },
        { name: 'Tools', description: 'Tool catalog and direct invocation.' },
        { name: 'Bundles', description: 'Agent bundles: upload, runs, streams.' },
        { name: 'Workflows', description: 'DAG workflows: definitions, runs, approvals, streams.' },
        { name: 'Evals', description: 'Evaluation datasets and runs.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
