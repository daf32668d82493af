// HTTP edge of the bundle plane (SPEC.md "Bundles"): the five routes, the master toggle (403 before
// anything else once authenticated, so a disabled host also spends no rate-limit permits), the
// multipart upload handed to the handle service as a reader, and the SSE stream that drives a reserved
// run. Validates, calls the services, maps the result; nothing here decides policy.
import multipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { hijackReply, listValidatorCompiler, PageQuerySchema, pageOf, principalOf, problemResponses, type App, IdempotencyHeadersSchema, admitIdempotent, bodyFingerprint, IDEMPOTENCY_HEADER, IdempotentReplay, sendReplay } from '../platform/http/index.js';
import type { RateLimitPolicy } from '../platform/config/types.js';
import { isProblemError, ProblemError } from '../platform/problems/index.js';
import type { IdempotencyStore } from '../platform/idempotency/index.js';
import type { AuditLog } from '../platform/audit/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { isSseAbortError, openSseStream, type OpenStreams } from '../platform/sse/index.js';
import { ArchiveRejected, archiveGuardDetail } from './archive/index.js';
import { bundlesDisabled, uploadFieldMissing } from './problems.js';
import { MULTIPART_ENVELOPE_BYTES } from './upload/receive-upload.js';
import { readMultipartUpload } from './upload/read-multipart-upload.js';
import type { RunStream } from './runs/run-stream.js';
import {
  type BundleRunResponse,
  BundleRunResponseSchema,
  HandleListSchema,
  HandleParamsSchema,
  RunListSchema,
  RegisterBundleBodySchema,
  RegisterBundleResponseSchema,
  RunBundleRequestSchema,
  RunAgentInputSchema,
  RunParamsSchema,
  StartRunResponseSchema,
} from './schemas.js';
import { aguiTurn } from './agui/agui-turn.js';
import type { HandleService } from './handles/handle-service.js';
import type { BundleRunService } from './runs/bundle-run-service.js';
import { isFinishedRunResponse } from './runs/run-response.js';

export interface BundleRoutesOptions {
  readonly handles: HandleService;
  readonly runs: BundleRunService;
  readonly enabled: boolean;
  readonly maxArchiveBytes: number;
  /** Interval of SSE heartbeat comments. */
  readonly heartbeatMs?: number;
  /** The run streams open here; shutdown finishes them (RUN_ERROR when a run did not end here). */
  readonly streams: OpenStreams;
  /** Refused archives (counter). */
  readonly metrics: ServiceMetrics;
  /** Refused archives, with the request id. */
  readonly audit: AuditLog;
  /** Where an upload's Idempotency-Key is admitted (DESIGN §14). */
  readonly idempotency: IdempotencyStore;
}

/** The guard behind a refused upload, if an archive guard refused it. */
function refusingGuard(error: unknown): string | undefined {
  if (error instanceof ArchiveRejected) return error.guard;
  const cause = isProblemError(error) ? error.cause : undefined;
  return cause instanceof ArchiveRejected ? cause.guard : undefined;
}

const TAGS = ['Bundles'];

export async function registerBundleRoutes(app: App, options: BundleRoutesOptions): Promise<void> {
  const { handles, runs, enabled, maxArchiveBytes, streams } = options;
  // A disabled host refuses before anything is counted or read.
  const limited = (policy: RateLimitPolicy): FastifyContextConfig => (enabled ? { rateLimit: policy } : {});
  const archiveRefused = (ownerId: string, guard: string, reqId: string): void => {
    options.metrics.archiveRejections.child(guard).inc();
    options.audit.archiveRefused(ownerId, guard, reqId);
  };

  await app.register(async (scope: App) => {
    // A disabled host refuses every bundle request (after authentication); an enabled one needs no
    // hook at all (one pass fewer on every poll).
    if (!enabled) scope.addHook('onRequest', (_request, _reply, done) => done(bundlesDisabled()));

    scope.get(
      '/api/bundles',
      {
        config: limited('bundles-poll'),
        validatorCompiler: listValidatorCompiler,
        schema: {
          operationId: 'listBundles',
          summary: 'List the caller’s live handles, newest first, a page at a time.',
          tags: TAGS,
          querystring: PageQuerySchema,
          response: { 200: HandleListSchema, ...problemResponses(400, 401, 403, 429) },
        },
      },
      async (request) => handles.list(principalOf(request), pageOf(request.query)),
    );

    scope.get(
      '/api/bundles/:handle/runs',
      {
        config: limited('bundles-poll'),
        validatorCompiler: listValidatorCompiler,
        schema: {
          operationId: 'listBundleRuns',
          summary: 'List the caller’s runs under one of their handles, newest first, a page at a time.',
          tags: TAGS,
          params: HandleParamsSchema,
          querystring: PageQuerySchema,
          response: { 200: RunListSchema, ...problemResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => runs.list(principalOf(request), request.params.handle, pageOf(request.query)),
    );

    await scope.register(async (upload: App) => {
      await upload.register(multipart, {
        throwFileSizeLimit: false,
        // The body cap bounds how many parts fit. The part, file and field counts are not capped below
        // it because the parser skips parts past such a limit by pausing the request body for good: the
        // upload would hang instead of being refused. Extra files are drained and refused (400).
        limits: { fileSize: maxArchiveBytes + 1, files: 100_000, fields: 100_000, fieldSize: 1024, parts: 100_000, headerPairs: 64 },
      });
      upload.post(
        '/api/bundles',
        {
          config: { ...limited('bundles-register'), idempotent: 'upload' },
          // Documented here; the multipart body is read by the handler, as a stream.
          validatorCompiler: () => () => true,
          schema: {
            operationId: 'registerBundle',
            headers: IdempotencyHeadersSchema,
            summary: 'Upload a bundle (zip) and receive a short-lived handle.',
            tags: TAGS,
            consumes: ['multipart/form-data'],
            body: RegisterBundleBodySchema,
            response: { 201: RegisterBundleResponseSchema, ...problemResponses(400, 401, 403, 409, 422, 429, 500) },
          },
        },
        async (request, reply) => {
          const principal = principalOf(request);
          if (!request.isMultipart()) throw uploadFieldMissing();
          const declared = Number(request.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxArchiveBytes + MULTIPART_ENVELOPE_BYTES) {
            reply.header('connection', 'close');
            archiveRefused(principal.ownerId, 'too-large', request.id);
            throw new ProblemError('validation-failed', archiveGuardDetail('too-large'));
          }
          const registering = handles.register(
            principal,
            async (target) => {
              try {
                return await readMultipartUpload({ files: request.files(), raw: request.raw, maxArchiveBytes }, target);
              } catch (error) {
                // The rest of the body is not read: the connection cannot be reused.
                reply.header('connection', 'close');
                throw error;
              }
            },
            // An Idempotency-Key is admitted with the file's fingerprint, before a handle exists (DESIGN §14).
            async (bytes) => {
              if (request.headers[IDEMPOTENCY_HEADER] === undefined) return;
              const replay = await admitIdempotent(options.idempotency, request, bodyFingerprint(await bytes()));
              if (replay !== null) throw new IdempotentReplay(replay);
            },
          );
          const registered = await registering.catch((error: unknown) => {
            if (error instanceof IdempotentReplay) return error;
            const guard = refusingGuard(error);
            if (guard !== undefined) archiveRefused(principal.ownerId, guard, request.id);
            throw error;
          });
          if (registered instanceof IdempotentReplay) return sendReplay(reply, registered.answer);
          return reply.code(201).header('location', `/api/bundles/${encodeURIComponent(registered.handle)}`).send(registered);
        },
      );
    });

    scope.delete(
      '/api/bundles/:handle',
      {
        config: limited('bundles-delete'),
        schema: {
          operationId: 'deleteBundle',
          summary: 'Delete a handle (idempotent and non-disclosing: 204 for any handle; 404 only for an id too long to be one).',
          tags: TAGS,
          params: HandleParamsSchema,
          response: { 204: { type: 'null', description: 'Deleted, or nothing to delete.' }, ...problemResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request, reply) => {
        await handles.delete(principalOf(request), request.params.handle);
        return reply.code(204).send(null);
      },
    );

    scope.post(
      '/api/bundles/:handle/runs',
      {
        config: { ...limited('bundles-runs'), idempotent: 'body' },
        schema: {
          operationId: 'startBundleRun',
          headers: IdempotencyHeadersSchema,
          summary: 'Start a run (a multi-turn conversation) against a handle, in the background or reserved for a stream.',
          tags: TAGS,
          params: HandleParamsSchema,
          body: RunBundleRequestSchema,
          response: { 202: StartRunResponseSchema, ...problemResponses(400, 401, 403, 404, 409, 422, 429, 500) },
        },
      },
      async (request, reply) => {
        const started = await runs.start(principalOf(request), request.params.handle, request.body, request.id);
        return reply.code(202).header('location', started.statusUrl).send(started);
      },
    );

    scope.get(
      '/api/bundles/:handle/runs/:jobId',
      {
        config: limited('bundles-poll'),
        schema: {
          operationId: 'getBundleRun',
          summary: 'Poll a run (readable only by its starting caller, under the same handle).',
          tags: TAGS,
          params: RunParamsSchema,
          response: { 200: BundleRunResponseSchema, ...problemResponses(401, 403, 404, 429) },
        },
      },
      // Not async: an async handler returning the service's promise costs two more microtask turns per
      // poll, and a finished run this instance keeps is answered without a promise at all.
      (request, reply) => {
        const principal = principalOf(request);
        const { handle, jobId } = request.params;
        const now = runs.getNow(principal, handle, jobId);
        if (now !== undefined) return pollAnswer(reply, now);
        return runs.get(principal, handle, jobId).then((response) => pollAnswer(reply, response));
      },
    );

    scope.post(
      '/api/bundles/:handle/agui',
      {
        config: limited('bundles-runs'),
        schema: {
          operationId: 'runBundleAgui',
          summary: 'Run one AG-UI turn (RunAgentInput; threadId is the conversation) and answer its AG-UI event stream directly.',
          description:
            'For stock AG-UI clients (`HttpAgent`). The same run as `stream: true` followed by its stream: RUN_STARTED carries the ' +
            'client’s threadId and the service’s job id as runId; the run is pollable afterwards at /api/bundles/{handle}/runs/{runId}. ' +
            'Closing the connection cancels the run. A run that waits for a person ends its stream with RUN_FINISHED carrying the ' +
            'AG-UI interrupt outcome; a following RunAgentInput with `resume` decides it (when the caller may) and streams the continuation.',
          tags: TAGS,
          params: HandleParamsSchema,
          body: RunAgentInputSchema,
          produces: ['text/event-stream'],
          response: {
            200: { description: 'text/event-stream of `data: <json>` AG-UI events (SPEC.md "Bundle stream frames").', type: 'string' },
            ...problemResponses(400, 401, 403, 404, 429, 500),
          },
        },
      },
      async (request, reply) => {
        const { resume } = request.body;
        const { stream } =
          resume !== undefined && resume.length > 0
            ? await runs.resumeAgui(principalOf(request), request.params.handle, request.body.threadId, resume, request.id)
            : await runs.runAgui(principalOf(request), request.params.handle, aguiTurn(request.body), request.id);
        const res = hijackReply(reply);
        await streams.serve((finish) => pumpFrames(res, stream, finish, request.log, options.heartbeatMs));
      },
    );

    scope.get(
      '/api/bundles/:handle/runs/:jobId/stream',
      {
        // Opening the stream drives the run and closing it cancels the run: a HEAD must not do that.
        exposeHeadRoute: false,
        schema: {
          operationId: 'streamBundleRun',
          summary: 'Open the AG-UI event stream of a run reserved for streaming; opening drives the run, closing cancels it.',
          tags: TAGS,
          params: RunParamsSchema,
          produces: ['text/event-stream'],
          response: {
            200: { description: 'text/event-stream of `data: <json>` frames (SPEC.md "Bundle stream frames").', type: 'string' },
            ...problemResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const stream = await runs.openStream(principalOf(request), request.params.handle, request.params.jobId);
        const res = hijackReply(reply);
        await streams.serve((finish) => pumpFrames(res, stream, finish, request.log, options.heartbeatMs));
      },
    );
  });
}

/**
 * Writes the run's frames until its terminal frame; a connection that goes away cancels the run. When
 * the host stops (`finish`), the stream ends with what the run committed, then RUN_ERROR if the run
 * did not end here.
 */
async function pumpFrames(res: ServerResponse, stream: RunStream, finish: AbortSignal, log: FastifyBaseLogger, heartbeatMs?: number): Promise<void> {
  const sse = openSseStream(res, {
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
    onError: (err) => log.debug({ err }, 'bundle stream write failed'),
  });
  const onEnd = (): void => {
    const reason: unknown = sse.signal.reason;
    if (!(isSseAbortError(reason) && reason.code === 'closed')) stream.cancel(isSseAbortError(reason) && reason.code === 'slow-consumer' ? 'client-too-slow' : undefined);
  };
  sse.signal.addEventListener('abort', onEnd, { once: true });
  try {
    for await (const { event } of stream.frames(sse.signal, finish)) {
      if (!sse.send(event)) break;
    }
  } catch (err) {
    // Reading the run's frames failed for good: the stream ends without a terminal frame, which tells
    // the client the run was interrupted (SPEC.md "Bundle run stream"); the run itself goes on.
    log.warn({ err }, 'a bundle run stream ended early');
  } finally {
    sse.signal.removeEventListener('abort', onEnd);
    sse.close();
    stream.release();
  }
}

/**
 * Finished runs' poll answers as the route's serializer wrote them, by projection: a finished run's
 * projection is one frozen object for as long as its record is kept (run-response.ts), so its text is
 * written once however often it is polled. Live runs' answers are written each time.
 */
const finishedPollBodies = new WeakMap<BundleRunResponse, string>();
/** What Fastify writes for a JSON payload it serializes itself. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function pollAnswer(reply: FastifyReply, response: BundleRunResponse): BundleRunResponse | undefined {
  if (!isFinishedRunResponse(response)) return response;
  let body = finishedPollBodies.get(response);
  if (body === undefined) {
    body = reply.serialize(response) as string; // the route's fast-json-stringify serializer: text
    finishedPollBodies.set(response, body);
  }
  void reply.type(JSON_CONTENT_TYPE).send(body);
  return undefined;
}
