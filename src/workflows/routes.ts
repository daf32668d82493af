// HTTP edge of the workflow family (SPEC.md "Workflows", DESIGN §6): definitions, validation, runs,
// approvals and the progress stream. Validates, calls the service, maps the result. Rate-limit
// policies per DESIGN §10: workflows-write for submit, validate, delete, start, cancel, approvals;
// workflows-read for list, get, poll, stream. Definition bodies may be up to 2 MiB.
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from '../platform/vendor/typebox.js';
import type { AuditLog } from '../platform/audit/index.js';
import { hijackReply, listValidatorCompiler, pageOf, principalOf, problemResponses, validationProblem, type App, IdempotencyHeadersSchema } from '../platform/http/index.js';
import type { SharedSlots } from '../platform/rate-limit/index.js';
import { openSseStream, type OpenStreams } from '../platform/sse/index.js';
import { detailView, listView, runStatusUrl, submitView, workflowLocation } from './definition-views.js';
import { streamCeilingReached } from './problems.js';
import {
  ApprovalParamsSchema,
  ApprovalRequestSchema,
  ApprovalResponseSchema,
  CancelResponseSchema,
  CandidateDefinitionSchema,
  DiagnosticSchema,
  RunParamsSchema,
  RunListQuerySchema,
  RunListSchema,
  RunProjectionSchema,
  StartRunRequestSchema,
  StartRunResponseSchema,
  SubmitResponseSchema,
  ValidateResponseSchema,
  WorkflowDefinitionSchema,
  WorkflowDetailSchema,
  WorkflowListSchema,
  WorkflowParamsSchema,
} from './schemas.js';
import type { WorkflowService } from './service.js';
import { parseLastEventId, serveProgressStream } from './streams/serve-progress-stream.js';
import { sseFrameSink } from './streams/sse-frame-sink.js';

export interface WorkflowRoutesOptions {
  readonly service: WorkflowService;
  /** Open progress streams, per owner (across instances) and host-wide (503 beyond). */
  readonly streamSlots: SharedSlots;
  readonly watcherBufferFrames: number;
  readonly maxDefinitionBytes: number;
  readonly heartbeatMs?: number;
  /** The progress streams open here; shutdown finishes them. */
  readonly streams: OpenStreams;
  /** The audit trail: every approval answered, with the request id. */
  readonly audit: AuditLog;
  /** Progress streams that wait for the storage or end early say so here. */
  readonly log: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

const TAGS = ['Workflows'];
const startRequest = Compile(StartRunRequestSchema);
const noBodyValidation = { validatorCompiler: () => () => true };

export function registerWorkflowRoutes(app: App, options: WorkflowRoutesOptions): void {
  const { service } = options;
  app.addSchema(DiagnosticSchema);

  app.post(
    '/api/workflows',
    {
      bodyLimit: options.maxDefinitionBytes,
      config: { rateLimit: 'workflows-write', idempotent: 'body' },
      ...noBodyValidation, // documented below, checked by the definition validator (all diagnostics at once)
      schema: {
        operationId: 'submitWorkflow',
        headers: IdempotencyHeadersSchema,
        summary: 'Submit a workflow definition (a DAG of steps); every structural problem is reported at once.',
        tags: TAGS,
        body: WorkflowDefinitionSchema,
        response: { 201: SubmitResponseSchema, ...problemResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const stored = await service.definitions.submit(principalOf(request), request.body);
      return reply.code(201).header('location', workflowLocation(stored.id)).send(submitView(stored));
    },
  );

  app.post(
    '/api/workflows/validate',
    {
      bodyLimit: options.maxDefinitionBytes,
      config: { rateLimit: 'workflows-write' },
      ...noBodyValidation,
      schema: {
        operationId: 'validateWorkflow',
        summary: 'Validate a workflow definition without storing it (dry run): the same diagnostics as submit.',
        tags: TAGS,
        body: CandidateDefinitionSchema,
        response: { 200: ValidateResponseSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => service.definitions.validate(principalOf(request), request.body),
  );

  app.get(
    '/api/workflows',
    {
      config: { rateLimit: 'workflows-read' },
      schema: { operationId: 'listWorkflows', summary: 'List the caller’s workflows, newest first.', tags: TAGS, response: { 200: WorkflowListSchema, ...problemResponses(401, 429) } },
    },
    async (request) => listView(await service.definitions.list(principalOf(request))),
  );

  app.get(
    '/api/workflows/:workflowId',
    {
      config: { rateLimit: 'workflows-read' },
      schema: {
        operationId: 'getWorkflow',
        summary: 'Get a stored workflow definition with its ids.',
        tags: TAGS,
        params: WorkflowParamsSchema,
        response: { 200: WorkflowDetailSchema, ...problemResponses(401, 404, 429) },
      },
    },
    async (request) => detailView(await service.definitions.get(principalOf(request), request.params.workflowId)),
  );

  app.delete(
    '/api/workflows/:workflowId',
    {
      config: { rateLimit: 'workflows-write' },
      schema: {
        operationId: 'deleteWorkflow',
        summary: 'Delete a workflow definition (409 while it has a live run).',
        tags: TAGS,
        params: WorkflowParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...problemResponses(401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      await service.definitions.delete(principalOf(request), request.params.workflowId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/workflows/:workflowId/runs',
    {
      config: { rateLimit: 'workflows-write', idempotent: 'body' },
      ...noBodyValidation, // no body is the ordinary case; checked below when present
      schema: {
        operationId: 'startWorkflowRun',
        headers: IdempotencyHeadersSchema,
        'x-optional-body': true,
        summary: 'Start a run under the starting caller’s envelope; optional body `{ input }`.',
        tags: TAGS,
        params: WorkflowParamsSchema,
        body: StartRunRequestSchema,
        response: { 202: StartRunResponseSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body: unknown = request.body;
      if (body !== undefined && !startRequest.Check(body)) {
        throw validationProblem('body', [...startRequest.Errors(body)].map((e) => ({ ...e })));
      }
      const run = await service.runs.start(principal, request.params.workflowId, body?.input, request.id);
      const statusUrl = runStatusUrl(run.workflowId, run.jobId);
      return reply.code(202).header('location', statusUrl).send({ jobId: run.jobId, statusUrl });
    },
  );

  app.get(
    '/api/workflows/:workflowId/runs/:jobId',
    {
      config: { rateLimit: 'workflows-read' },
      schema: {
        operationId: 'getWorkflowRun',
        summary: 'Poll a run (never echoes its envelope, tenant or input).',
        tags: TAGS,
        params: RunParamsSchema,
        response: { 200: RunProjectionSchema, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request) => service.runs.poll(principalOf(request), request.params.workflowId, request.params.jobId),
  );

  app.delete(
    '/api/workflows/:workflowId/runs/:jobId',
    {
      config: { rateLimit: 'workflows-write' },
      schema: {
        operationId: 'cancelWorkflowRun',
        summary: 'Cancel a run: Queued is cancelled outright; Running and Blocked are signalled (poll to confirm); final runs answer 409.',
        tags: TAGS,
        params: RunParamsSchema,
        response: { 200: CancelResponseSchema, ...problemResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request) => service.runs.cancel(principalOf(request), request.params.workflowId, request.params.jobId),
  );

  app.get(
    '/api/workflows/runs',
    {
      config: { rateLimit: 'workflows-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listWorkflowRuns',
        summary: 'List the caller’s runs across their workflows, newest first; optionally of one workflow or in one status.',
        tags: TAGS,
        querystring: RunListQuerySchema,
        response: { 200: RunListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { status, workflowId, ...page } = request.query;
      return service.runs.list(principalOf(request), { ...pageOf(page), ...(status ? { status } : {}), ...(workflowId ? { workflowId } : {}) });
    },
  );

  app.post(
    '/api/workflows/:workflowId/runs/:jobId/approvals/:approvalId',
    {
      config: { rateLimit: 'workflows-write', idempotent: 'body' },
      schema: {
        operationId: 'decideApproval',
        headers: IdempotencyHeadersSchema,
        summary: 'Answer a pending approval of a Blocked run (its owner; with Approvals:AllowSelfApproval false, 403); the run resumes under the same job id.',
        tags: TAGS,
        params: ApprovalParamsSchema,
        body: ApprovalRequestSchema,
        response: { 200: ApprovalResponseSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const { workflowId, jobId, approvalId } = request.params;
      const { decision, comment } = request.body;
      await service.runs.decide(principalOf(request), { workflowId, jobId, approvalId }, decision, comment ?? null, request.id);
      return { approvalId, decision };
    },
  );

  app.get(
    '/api/workflows/:workflowId/runs/:jobId/stream',
    {
      config: { rateLimit: 'workflows-read' },
      schema: {
        operationId: 'streamWorkflowRun',
        summary: 'Watch a run’s progress: SNAPSHOT first, then STEP frames; FINISHED or PARKED closes. Every frame has an `id:` line; re-attach with Last-Event-ID.',
        tags: TAGS,
        params: RunParamsSchema,
        produces: ['text/event-stream'],
        response: {
          200: {
            type: 'string',
            description:
              'text/event-stream: `id: <sequence>` and `data: <json>` per frame. SNAPSHOT { jobId, status, isTerminal, sequence, steps }, ' +
              'STEP { sequence, stepName, stepId, status, output?, error? }, FINISHED { sequence, status, error? }, PARKED { sequence, approvalId, stepName }, GAP { droppedCount }.',
          },
          ...problemResponses(401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // Authorization happens once, here; the stream then runs to its end regardless of the token.
      await service.runs.view(principal, request.params.workflowId, request.params.jobId);
      const lease = await options.streamSlots.tryAcquire(principal.ownerId);
      if (lease === null) throw streamCeilingReached();
      const res = hijackReply(reply);
      const sse = openSseStream(res, {
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
        // The sink waits for 'drain' before every frame, so the unsent buffer never holds more than
        // one frame beyond the socket's high-water mark. A SNAPSHOT of a large run (up to MaxSteps
        // step outputs) can alone exceed the platform's default 1 MiB, which would drop the watcher
        // before its first frame; SPEC.md: "First frame is always SNAPSHOT".
        maxBufferedBytes: Number.MAX_SAFE_INTEGER,
        onError: (err) => logDebug(request.log, err),
      });
      const run = { ownerId: principal.ownerId, jobId: request.params.jobId };
      const lastEventId = parseLastEventId(request.headers['last-event-id']);
      try {
        await options.streams.serve((finish) =>
          serveProgressStream(service.store, run, sseFrameSink(sse, res), { bufferFrames: options.watcherBufferFrames, lastEventId, finish, log: options.log }),
        );
      } finally {
        lease.release();
      }
    },
  );
}

function logDebug(log: FastifyBaseLogger, err: unknown): void {
  log.debug({ err }, 'workflow stream write failed');
}
