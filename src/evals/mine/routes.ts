// HTTP edge of a caller's own eval datasets (DESIGN.md §19): validate, call the service, map the
// result. The PUT and add-case bodies and names are checked inside the service, after the role and
// toggle gate (403 before 400, as starting a run), and by the dataset parser, so its 400s name the
// case and the field.
import { listValidatorCompiler, pageOf, principalOf, problemResponses, type App, IdempotencyHeadersSchema } from '../../platform/http/index.js';
import {
  AddMyEvalDatasetCaseRequestSchema,
  AddMyEvalDatasetCaseResponseSchema,
  MyEvalDatasetListQuerySchema,
  MyEvalDatasetListSchema,
  MyEvalDatasetParamsSchema,
  MyEvalDatasetQuerySchema,
  MyEvalDatasetSchema,
  MyEvalDatasetVersionSchema,
  PutMyEvalDatasetParamsSchema,
  PutMyEvalDatasetRequestSchema,
} from './schemas.js';
import type { OwnDatasetService } from './service.js';

const tags = ['Evals'];
/** The body may be pretty-printed: MaxDatasetBytes bounds its compact form, checked in the service. */
const MIN_BODY_LIMIT = 1024 * 1024;

export function registerOwnDatasetRoutes(app: App, service: OwnDatasetService, limits: { readonly maxDatasetBytes: number }): void {
  app.put(
    '/api/evals/datasets/mine/:name',
    {
      bodyLimit: Math.max(MIN_BODY_LIMIT, 2 * limits.maxDatasetBytes),
      config: { rateLimit: 'evals-write', idempotent: 'body' },
      // Documented here, validated in the service after the gate.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'putMyEvalDataset',
        summary: 'Store a dataset of my own as its next version (201 for a new name; 200 with the latest version when the content is equal to it).',
        description:
          'Validated exactly as a JSON dataset file (400 naming the case and the field). At most 100 datasets per caller; each version within Evaluation:MaxDatasetBytes. A run names it `mine/<name>` (latest) or `mine/<name>@<version>`.',
        tags,
        headers: IdempotencyHeadersSchema,
        params: PutMyEvalDatasetParamsSchema,
        body: PutMyEvalDatasetRequestSchema,
        response: { 200: MyEvalDatasetVersionSchema, 201: MyEvalDatasetVersionSchema, ...problemResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const saved = await service.put(principalOf(request), request.params.name, request.body);
      return reply.code(saved.created ? 201 : 200).send(saved.version);
    },
  );

  app.post(
    '/api/evals/datasets/mine/:name/cases',
    {
      config: { rateLimit: 'evals-write', idempotent: 'body' },
      // Documented here, validated in the service after the gate.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'addMyEvalDatasetCase',
        summary: 'Make a finished bundle run of mine a case of my dataset, as its next version (the dataset is created when missing).',
        description:
          'The case keeps the user messages the run’s turns received, the bundle’s AGENT.md id as `agent`, and a `recording` of its model answers and tool calls, redacted as its frames were. An unknown or foreign run (or one named under another handle) is 404, a run still queued, running or waiting for an approval 409, a run with a withheld frame 422; the new version is validated as a PUT of it would be (400). Racing writes each end as their own version.',
        tags,
        headers: IdempotencyHeadersSchema,
        params: PutMyEvalDatasetParamsSchema,
        body: AddMyEvalDatasetCaseRequestSchema,
        response: { 201: AddMyEvalDatasetCaseResponseSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addCase(principalOf(request), request.params.name, request.body)),
  );

  app.get(
    '/api/evals/datasets/mine',
    {
      config: { rateLimit: 'evals-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listMyEvalDatasets',
        summary: 'List my own datasets, newest first, each with its latest version.',
        tags,
        querystring: MyEvalDatasetListQuerySchema,
        response: { 200: MyEvalDatasetListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => service.list(principalOf(request), pageOf(request.query)),
  );

  app.get(
    '/api/evals/datasets/mine/:name',
    {
      config: { rateLimit: 'evals-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'getMyEvalDataset',
        summary: 'One of my datasets as it was PUT: its latest version, or ?version=N.',
        tags,
        params: MyEvalDatasetParamsSchema,
        querystring: MyEvalDatasetQuerySchema,
        response: { 200: MyEvalDatasetSchema, ...problemResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => service.get(principalOf(request), request.params.name, request.query.version),
  );

  app.delete(
    '/api/evals/datasets/mine/:name',
    {
      config: { rateLimit: 'evals-write' },
      schema: {
        operationId: 'deleteMyEvalDataset',
        summary: 'Delete one of my datasets with all its versions.',
        tags,
        params: MyEvalDatasetParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(principalOf(request), request.params.name);
      return reply.code(204).send(null);
    },
  );
}
