// Public routes: liveness, readiness, the OpenAPI document and, when enabled, Prometheus metrics.
// No bearer token, no rate limit, no data about callers. (The reference page at /docs is served by
// @fastify/swagger-ui in app.ts.)
import { Type } from '../platform/vendor/typebox.js';
import { ProblemError } from '../platform/problems/index.js';
import { parserRefusalResponse, problemResponses, type App } from '../platform/http/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';

/** What readiness reports: categories of dependency, never their internal names (paths, index or server names). */
export type ReadinessCategory = 'identity' | 'storage' | 'mcpServers' | 'datasetRoots' | 'retrievalIndexes';

/** One configured dependency; several checks of one category pass only together. */
export interface ReadinessCheck {
  readonly category: ReadinessCategory;
  check(): Promise<boolean>;
}

export const NOT_READY_DETAIL = 'The service is not ready: a dependency it was configured with cannot be reached.';

/**
 * How long one check may take before it counts as failing: readiness answers within a second whatever
 * a dependency does (a frozen database answers nothing at all).
 */
export const READINESS_CHECK_MS = 800;

/** The check's verdict, false once READINESS_CHECK_MS passed without one. */
function withinDeadline(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_MS);
    timer.unref();
  });
  return Promise.race([check().catch(() => false), late]).finally(() => clearTimeout(timer));
}

/** Every category's verdict (a category is ready when all its checks pass), in first-configured order. */
export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<Record<string, boolean>> {
  const results = await Promise.all(checks.map(async (c) => [c.category, await withinDeadline(() => c.check())] as const));
  const byCategory: Record<string, boolean> = {};
  for (const [category, ok] of results) byCategory[category] = (byCategory[category] ?? true) && ok;
  return byCategory;
}

const publicRoute = { security: [] as never[] };
const HEALTHY = Object.freeze({ status: 'ok' as const });

export function registerSystemRoutes(app: App, options: { readiness: readonly ReadinessCheck[]; metrics: ServiceMetrics }): void {
  if (options.metrics.enabled) registerMetricsRoute(app, options.metrics);
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        ...publicRoute,
        summary: 'Liveness: the process is up and serving.',
        tags: ['System'],
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { $id: 'HealthResponse' }), ...parserRefusalResponse },
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
        summary: 'Readiness: every dependency the service was configured with answers (identity provider, storage, MCP servers, dataset roots, retrieval indexes).',
        description: 'Reports categories only. 503 lists the failing categories in `failing` (and every category in `checks`), never a path or a name.',
        tags: ['System'],
        response: {
          200: Type.Object(
            { status: Type.Literal('ready'), checks: Type.Record(Type.String(), Type.Boolean(), { description: 'Each configured category: identity, storage, mcpServers, datasetRoots, retrievalIndexes.' }) },
            { $id: 'ReadinessResponse' },
          ),
          ...problemResponses(503),
          ...parserRefusalResponse,
        },
      },
    },
    async () => {
      const checks = await checkReadiness(options.readiness);
      const failing = Object.keys(checks).filter((category) => checks[category] !== true);
      if (failing.length > 0) throw new ProblemError('unavailable', NOT_READY_DETAIL, { extensions: { checks, failing } });
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
        response: { 200: Type.Object({}, { $id: 'OpenApiDocument', additionalProperties: true, description: 'An OpenAPI 3.1 document.' }), ...parserRefusalResponse },
      },
    },
    async () => app.swagger(),
  );
}

/** GET /metrics (AppConfig:Observability:Metrics:Enabled): the Prometheus text exposition. */
function registerMetricsRoute(app: App, metrics: ServiceMetrics): void {
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        ...publicRoute,
        summary: 'Prometheus metrics (text exposition format): requests, runs, streams, tool and model calls, refusals, redactions, Node process.',
        tags: ['System'],
        produces: ['text/plain'],
        response: { 200: { type: 'string', description: 'Prometheus text exposition format 0.0.4; no label carries an owner id, handle, job id, token, parameter or prompt.' }, ...parserRefusalResponse },
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    },
  );
}
