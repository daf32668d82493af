// HTTP edge of the eval family (SPEC.md "Evals", DESIGN.md §7): validate, call the service, map the
// result. Start validates its body inside the service, after the role and toggle gate, so a caller
// without the role learns nothing from a malformed body (403 before 400).
import { listValidatorCompiler, PageQuerySchema, pageOf, principalOf, problemResponses, type App, IdempotencyHeadersSchema } from '../platform/http/index.js';
import {
  CancelEvalRunResponseSchema,
  EvalDatasetsResponseSchema,
  EvalJobParamsSchema,
  EvalRunListSchema,
  EvalRunResponseSchema,
  documentedStartEvalRunRequestSchema,
  type StartEvalRunLimits,
  StartEvalRunResponseSchema,
} from './schemas.js';
import type { EvalService } from './service.js';

const tags = ['Evals'];

export function registerEvalRoutes(app: App, service: EvalService, limits: StartEvalRunLimits): void {
  app.get(
    '/api/evals/datasets',
    {
      config: { rateLimit: 'evals-read' },
      schema: {
        operationId: 'listEvalDatasets',
        summary: 'List the dataset names in the configured roots (also while evaluation is disabled).',
        tags,
        response: { 200: EvalDatasetsResponseSchema, ...problemResponses(401, 429) },
      },
    },
    async () => ({ datasets: await service.listDatasets() }),
  );

  app.post(
    '/api/evals/runs',
    {
      config: { rateLimit: 'evals-write', idempotent: 'body' },
      // Documented here, validated in the service after the gate.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'startEvalRun',
        headers: IdempotencyHeadersSchema,
        summary: 'Start an evaluation run over named datasets (role Harness.Evals.Execute).',
        tags,
        body: documentedStartEvalRunRequestSchema(limits),
        response: { 202: StartEvalRunResponseSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const started = await service.start(principalOf(request), request.body, request.id);
      return reply.code(202).header('location', started.statusUrl).send(started);
    },
  );

  app.get(
    '/api/evals/runs',
    {
      config: { rateLimit: 'evals-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listEvalRuns',
        summary: 'List the caller’s evaluation runs, newest first, as their poll bodies.',
        tags,
        querystring: PageQuerySchema,
        response: { 200: EvalRunListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => service.list(principalOf(request), pageOf(request.query)),
  );

  app.get(
    '/api/evals/runs/:jobId',
    {
      config: { rateLimit: 'evals-read' },
      schema: {
        operationId: 'getEvalRun',
        summary: 'Poll an evaluation run: status and, once finished, counts, verdict, cost and the report.',
        tags,
        params: EvalJobParamsSchema,
        response: { 200: EvalRunResponseSchema, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request) => service.poll(principalOf(request), request.params.jobId),
  );

  app.delete(
    '/api/evals/runs/:jobId',
    {
      config: { rateLimit: 'evals-write' },
      schema: {
        operationId: 'cancelEvalRun',
        summary: 'Cancel an evaluation run: a queued run is cancelled outright; an executing one runs to completion.',
        tags,
        params: EvalJobParamsSchema,
        response: { 200: CancelEvalRunResponseSchema, ...problemResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request) => service.cancel(principalOf(request), request.params.jobId),
  );

  app.get(
    '/api/evals/runs/:jobId/report.xml',
    {
      config: { rateLimit: 'evals-read' },
      schema: {
        operationId: 'getEvalRunReport',
        summary: 'The finished run as JUnit XML, for CI systems (owner only; 409 while not finished).',
        tags,
        params: EvalJobParamsSchema,
        response: {
          200: { description: 'JUnit XML.', content: { 'application/xml': { schema: { type: 'string' } } } },
          ...problemResponses(401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const xml = await service.junitReport(principalOf(request), request.params.jobId);
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );
}
