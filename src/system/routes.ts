// Public routes: liveness, readiness, the OpenAPI document. No bearer token, no rate limit, no
// data about callers. (The reference page at /docs is served by @fastify/swagger-ui in app.ts.)
import { Type } from 'typebox';
import { ProblemError } from '../platform/problems/index.js';
import { problemResponses, type App } from '../platform/http/index.js';

export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<boolean>;
}

const publicRoute = { security: [] as never[] };
const HEALTHY = Object.freeze({ status: 'ok' as const });

export function registerSystemRoutes(app: App, options: { readiness: readonly ReadinessCheck[] }): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        ...publicRoute,
        summary: 'Liveness: the process is up and serving.',
        tags: ['System'],
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { $id: 'HealthResponse' }) },
      },
    },
    // Synchronous: a liveness probe needs no promise of its own.
    (_request, reply) => {
      void reply.send(HEALTHY);
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        ...publicRoute,
        summary: 'Readiness: identity metadata loaded and configured roots readable.',
        tags: ['System'],
        response: {
          200: Type.Object(
            { status: Type.Literal('ready'), checks: Type.Record(Type.String(), Type.Boolean(), { description: 'Each check by name.' }) },
            { $id: 'ReadinessResponse' },
          ),
          ...problemResponses(503),
        },
      },
    },
    async () => {
      const results = await Promise.all(
        options.readiness.map(async (c) => [c.name, await c.check().catch(() => false)] as const),
      );
      const checks = Object.fromEntries(results);
      if (results.some(([, ok]) => !ok)) {
        throw new ProblemError('unavailable', 'The service is not ready.', { extensions: { checks } });
      }
      return { status: 'ready' as const, checks };
    },
  );

  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiDocument',
        ...publicRoute,
        summary: 'This OpenAPI 3.1 document.',
        tags: ['System'],
        response: { 200: Type.Object({}, { $id: 'OpenApiDocument', additionalProperties: true, description: 'An OpenAPI 3.1 document.' }) },
      },
    },
    async () => app.swagger(),
  );
}
