// HTTP edge of the bundle plane (SPEC.md "Bundles"): the five routes, the master toggle (403 before
// anything else once authenticated, so a disabled host also spends no rate-limit permits), the
// multipart upload streamed to disk, and the SSE stream that drives a reserved run. Validates, calls
// the service, maps the result; nothing here decides policy.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyContextConfig } from 'fastify';
import type { ServerResponse } from 'node:http';
import { listValidatorCompiler, PageQuerySchema, pageOf, principalOf, problemResponses, type App } from '../platform/http/index.js';
import type { RateLimitPolicy } from '../platform/config/types.js';
import { isProblemError, ProblemError } from '../platform/problems/index.js';
import type { AuditLog } from '../platform/audit/index.js';
import type { EnvelopesConfig } from '../platform/config/types.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { isSseAbortError, openSseStream } from '../platform/sse/index.js';
import { ArchiveRejected, archiveGuardDetail } from './archive/index.js';
import { meterRequestBody } from './upload/body-meter.js';
import { bundlesDisabled, uploadFieldMissing, uploadHasSeveralFiles } from './problems.js';
import { MULTIPART_ENVELOPE_BYTES, receiveUpload } from './upload/receive-upload.js';
import type { RunStream } from './runs/run-stream.js';
import { RUN_STREAM_CLIENT_TOO_SLOW } from './runs/run-errors.js';
import {
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
import type { BundleService } from './service.js';

export interface BundleRoutesOptions {
  readonly service: BundleService;
  readonly enabled: boolean;
  readonly maxArchiveBytes: number;
  /** Interval of SSE heartbeat comments. */
  readonly heartbeatMs?: number;
  /** Stops the runs executing here (shared by every family; idempotent). */
  readonly stopRuns: () => Promise<void>;
  /** Open streams (gauge), refused archives (counter). */
  readonly metrics: ServiceMetrics;
  /** Refused archives and started runs' envelopes, with the request id. */
  readonly audit: AuditLog;
  readonly envelopes: EnvelopesConfig;
}

/** The guard behind a refused upload, if an archive guard refused it. */
function refusingGuard(error: unknown): string | undefined {
  if (error instanceof ArchiveRejected) return error.guard;
  const cause = isProblemError(error) ? error.cause : undefined;
  return cause instanceof ArchiveRejected ? cause.guard : undefined;
}

const TAGS = ['Bundles'];

export async function registerBundleRoutes(app: App, options: BundleRoutesOptions): Promise<void> {
  const { service, enabled, maxArchiveBytes } = options;
  // A disabled host refuses before anything is counted or read.
  const limited = (policy: RateLimitPolicy): FastifyContextConfig => (enabled ? { rateLimit: policy } : {});
  const streams = new Set<Promise<void>>();
  options.metrics.streamsOpen.child('bundle').track(() => streams.size);
  const archiveRefused = (ownerId: string, guard: string, reqId: string): void => {
    options.metrics.archiveRejections.child(guard).inc();
    options.audit.archiveRefused(ownerId, guard, reqId);
  };

  await app.register(async (scope: App) => {
    // A disabled host refuses every bundle request (after authentication); an enabled one needs no
    // hook at all (one pass fewer on every poll).
    if (!enabled) scope.addHook('onRequest', (_request, _reply, done) => done(bundlesDisabled()));
    // Shutdown: every live run is cancelled and each open stream ends with RUN_ERROR before the
    // server drops its connections.
    scope.addHook('preClose', async () => {
      await options.stopRuns();
      await Promise.all([...streams]);
    });

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
      async (request) => service.listHandles(principalOf(request), pageOf(request.query)),
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
      async (request) => service.listRuns(principalOf(request), request.params.handle, pageOf(request.query)),
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
          config: limited('bundles-register'),
          // Documented here; the multipart body is read by the handler, as a stream.
          validatorCompiler: () => () => true,
          schema: {
            operationId: 'registerBundle',
            summary: 'Upload a bundle (zip) and receive a short-lived handle.',
            tags: TAGS,
            consumes: ['multipart/form-data'],
            body: RegisterBundleBodySchema,
            response: { 201: RegisterBundleResponseSchema, ...problemResponses(400, 401, 403, 429, 500) },
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
          const registering = service.register(principal, async (target) => {
            const files = request.files()[Symbol.asyncIterator]();
            const pending = files.next();
            const body = meterRequestBody(request.raw, maxArchiveBytes + MULTIPART_ENVELOPE_BYTES, () => new ArchiveRejected('too-large'));
            try {
              const first = await pending.catch((cause: unknown) => {
                throw new ProblemError('validation-failed', 'The multipart body is malformed or ended early.', { cause });
              });
              const part = first.done === true ? undefined : first.value;
              if (part === undefined || part.fieldname !== 'file') throw uploadFieldMissing();
              // Further parts are read (and any further file drained) while the archive streams in:
              // a file part nobody reads would stall the parser and with it the whole request body.
              const extra = drainFurtherFiles(files);
              await receiveUpload({ file: part.file, target, maxArchiveBytes, body }).catch((cause: unknown) => {
                if (cause instanceof ArchiveRejected || isProblemError(cause) || hasSyscall(cause)) throw cause;
                throw new ProblemError('validation-failed', 'The multipart body is malformed or ended early.', { cause });
              });
              // A second file makes the upload ambiguous: refused rather than silently ignored.
              const further = await extra;
              if (further === 'several-files') throw uploadHasSeveralFiles();
              if (further !== 'none') throw new ProblemError('validation-failed', 'The multipart body is malformed or ended early.', { cause: further.error });
              return part.filename === '' ? undefined : part.filename;
            } catch (error) {
              // The rest of the body is not read: the connection cannot be reused.
              reply.header('connection', 'close');
              throw error;
            } finally {
              body.stop();
            }
          });
          const registered = await registering.catch((error: unknown) => {
            const guard = refusingGuard(error);
            if (guard !== undefined) archiveRefused(principal.ownerId, guard, request.id);
            throw error;
          });
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
        await service.deleteHandle(principalOf(request), request.params.handle);
        return reply.code(204).send(null);
      },
    );

    scope.post(
      '/api/bundles/:handle/runs',
      {
        config: limited('bundles-runs'),
        schema: {
          operationId: 'startBundleRun',
          summary: 'Start a run (a multi-turn conversation) against a handle, in the background or reserved for a stream.',
          tags: TAGS,
          params: HandleParamsSchema,
          body: RunBundleRequestSchema,
          response: { 202: StartRunResponseSchema, ...problemResponses(400, 401, 403, 404, 429, 500) },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const started = await service.startRun(principal, request.params.handle, request.body);
        options.audit.envelopeResolved(principal.ownerId, 'bundle', resolveEnvelope(options.envelopes, principal), { jobId: started.jobId, reqId: request.id });
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
      // Not async: an async handler returning the service's promise costs two more microtask turns per poll.
      (request) => service.getRun(principalOf(request), request.params.handle, request.params.jobId),
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
            'Closing the connection cancels the run.',
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
        const principal = principalOf(request);
        const { jobId, stream } = await service.runAgui(principal, request.params.handle, aguiTurn(request.body));
        options.audit.envelopeResolved(principal.ownerId, 'bundle', resolveEnvelope(options.envelopes, principal), { jobId, reqId: request.id });
        reply.hijack();
        const pumping = pumpFrames(reply.raw, stream, request.log, options.heartbeatMs).finally(() => streams.delete(pumping));
        streams.add(pumping);
        await pumping;
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
        const stream = await service.openStream(principalOf(request), request.params.handle, request.params.jobId);
        reply.hijack();
        const pumping = pumpFrames(reply.raw, stream, request.log, options.heartbeatMs).finally(() => streams.delete(pumping));
        streams.add(pumping);
        await pumping;
      },
    );
  });
}

/** Writes the run's frames until its terminal frame; a connection that goes away cancels the run. */
async function pumpFrames(res: ServerResponse, stream: RunStream, log: FastifyBaseLogger, heartbeatMs?: number): Promise<void> {
  const sse = openSseStream(res, {
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
    onError: (err) => log.debug({ err }, 'bundle stream write failed'),
  });
  const onEnd = (): void => {
    const reason: unknown = sse.signal.reason;
    if (!(isSseAbortError(reason) && reason.code === 'closed')) stream.cancel(isSseAbortError(reason) && reason.code === 'slow-consumer' ? RUN_STREAM_CLIENT_TOO_SLOW : undefined);
  };
  sse.signal.addEventListener('abort', onEnd, { once: true });
  try {
    for await (const { event } of stream.frames(sse.signal)) {
      if (!sse.send(event)) break;
    }
  } finally {
    sse.signal.removeEventListener('abort', onEnd);
    sse.close();
    stream.release();
  }
}

/** Reads the file parts after the first to the end of the body, draining each; never rejects. */
async function drainFurtherFiles(files: AsyncIterator<MultipartFile>): Promise<'none' | 'several-files' | { readonly error: unknown }> {
  let several = false;
  try {
    for (let next = await files.next(); next.done !== true; next = await files.next()) {
      several = true;
      next.value.file.resume();
    }
    return several ? 'several-files' : 'none';
  } catch (error) {
    // Past the parser's file limit the extra parts are skipped and reported as this error.
    return several || (error as { code?: unknown } | null)?.code === 'FST_FILES_LIMIT' ? 'several-files' : { error };
  }
}

function hasSyscall(error: unknown): boolean {
  return typeof (error as { syscall?: unknown } | null)?.syscall === 'string';
}
