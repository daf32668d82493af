// HTTP edge of A2A (DESIGN §20): the agent card at GET /a2a/{handle}/.well-known/agent-card.json and the
// JSON-RPC endpoint at POST /a2a/{handle}. Both need a bearer token (like /api/), answer an unknown,
// foreign or expired handle with the bundle routes' 404, and refuse with the bundle routes' 403 while
// bundle execution is off. A POST is read by its own parser (a2a-body.ts), screened (screen-request.ts),
// checked for A2A-Version 1.0 (absent means 0.3, which this agent does not speak), and handed to the
// SDK's JSON-RPC transport handler with this caller's BundleAgent; a protocol error is a JSON-RPC error
// response (HTTP 200), never a 5xx, and nothing is stored. What is not about the request's content — no
// token, the rate limit, the handle gone, the storage away — stays the HTTP problem every route answers.
// Streams are SSE of JSON-RPC responses. Left out of the OpenAPI document: A2A specifies these messages.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AgentCard } from '@a2a-js/sdk';
import { A2A_ERROR_CODE, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import { bundlesDisabled, HANDLE_NOT_FOUND_DETAIL, type BundleAgents, type BundleHandle } from '../bundles/index.js';
import type { AuthConfig, RateLimitPolicy } from '../platform/config/types.js';
import { hijackReply, principalOf, requestOrigin, sendProblem, storageProblem, type App } from '../platform/http/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { isProblemError, ProblemError } from '../platform/problems/index.js';
import { openSseStream, type OpenStreams } from '../platform/sse/index.js';
import { A2A_BODY_TYPES, readA2aBody, type A2aBody } from './a2a-body.js';
import { INTERNAL_FAULT, toA2aError } from './a2a-errors.js';
import { A2A_PROTOCOL_VERSION, JSONRPC_BINDING, agentCardOf } from './agent-card.js';
import { BundleAgent, type BundleAgentDeps } from './bundle-agent.js';
import { errorResponse, invalidRequest, screenRequest, type RpcErrorResponse, type RpcId } from './screen-request.js';

export interface A2aRoutesOptions {
  readonly agents: BundleAgents;
  readonly agent: BundleAgentDeps;
  readonly auth: AuthConfig;
  /** The A2A streams and waits open here; shutdown finishes them. */
  readonly streams: OpenStreams;
  readonly metrics: ServiceMetrics;
  readonly log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** The largest JSON-RPC request body, in bytes. */
  readonly bodyLimit: number;
  readonly heartbeatMs?: number;
}

const A2A_VERSION_HEADER = 'a2a-version';
/** What A2A reads a request without A2A-Version as. */
const ABSENT_VERSION = '0.3';
const METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'GetTask', 'ListTasks', 'CancelTask', 'SubscribeToTask', 'GetExtendedAgentCard', 'CreateTaskPushNotificationConfig', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'DeleteTaskPushNotificationConfig']);
/** The versions this agent speaks, as validateVersion reads them from a card. */
const SPOKEN = { supportedInterfaces: [{ url: '', protocolBinding: JSONRPC_BINDING, protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' }] } as unknown as AgentCard;
/** Statuses a problem keeps as HTTP on these routes; any other refusal is answered in the protocol. */
const HTTP_PROBLEMS = new Set(['unauthorized', 'forbidden', 'not-found', 'method-not-allowed', 'rate-limited', 'unavailable', 'request-timeout']);

/** Starting or stopping work charges bundles-runs; reading charges bundles-poll (the bundle routes' policies). */
function policyOf(body: unknown): RateLimitPolicy {
  const read = body as A2aBody | undefined;
  const method = read?.parsed === true && typeof read.value === 'object' && read.value !== null ? (read.value as { method?: unknown }).method : undefined;
  return method === 'SendMessage' || method === 'SendStreamingMessage' || method === 'CancelTask' ? 'bundles-runs' : 'bundles-poll';
}

export async function registerA2aRoutes(app: App, options: A2aRoutesOptions): Promise<void> {
  const { agents, streams } = options;
  const counted = (method: string, outcome: 'ok' | 'error' | 'refused'): void => options.metrics.a2aRequests.child(METHODS.has(method) ? method : 'other', outcome).inc();
  const handleOf = async (request: FastifyRequest): Promise<BundleHandle> => {
    const found = await agents.handles.touch(principalOf(request), (request.params as { handle: string }).handle);
    if (found === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    return found;
  };

  await app.register(async (scope: App) => {
    // Bundle execution off: every A2A request is refused as the bundle routes refuse (after authentication).
    if (!agents.enabled) scope.addHook('onRequest', (_request, _reply, done) => done(bundlesDisabled()));
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(A2A_BODY_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, readA2aBody(body as Buffer)));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      // The storage away is the 503 every route answers.
      const problem = isProblemError(error) ? error : storageProblem(error);
      if (problem !== undefined && (request.method !== 'POST' || HTTP_PROBLEMS.has(problem.code))) return sendProblem(reply, problem);
      // Fastify's own refusals of a POST (body too large, a media type that is not JSON) are the protocol's invalid request.
      if (request.method === 'POST' && error.statusCode !== undefined && error.statusCode < 500) return sendRpc(reply, invalidRequest(bodyRefusal(error, options.bodyLimit)));
      request.log.error({ err: error }, 'an A2A request failed');
      if (request.method !== 'POST') return sendProblem(reply, new ProblemError('internal', INTERNAL_FAULT));
      return sendRpc(reply, { jsonrpc: '2.0', id: null, error: { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: INTERNAL_FAULT } });
    });

    scope.get('/a2a/:handle/.well-known/agent-card.json', { config: { bearer: true, rateLimit: 'bundles-poll' }, schema: { hide: true } }, async (request, reply) => {
      const card = agentCardOf(await handleOf(request), requestOrigin(request), options.auth);
      return reply.type('application/json').send(AgentCard.toJSON(card));
    });

    scope.post('/a2a/:handle', { bodyLimit: options.bodyLimit, config: { bearer: true, rateLimitByBody: policyOf }, schema: { hide: true } }, async (request, reply) => {
      const body = request.body as A2aBody | undefined;
      if (body === undefined) return sendRpc(reply, invalidRequest('The body is empty: send one JSON-RPC request with Content-Type: application/json.'));
      if (!body.parsed) return sendRpc(reply, { jsonrpc: '2.0', id: null, error: body.error });
      const screened = screenRequest(body.value);
      if (!screened.ok) return sendRpc(reply, screened.response, () => counted('other', 'error'));
      const { id, method } = screened;
      const version = headerOf(request, A2A_VERSION_HEADER) ?? ABSENT_VERSION;
      try {
        validateVersion(version, SPOKEN, JSONRPC_BINDING);
      } catch {
        counted(method, 'error');
        return sendRpc(reply, errorResponse(new VersionNotSupportedError(`This agent speaks A2A ${A2A_PROTOCOL_VERSION} only: send A2A-Version: ${A2A_PROTOCOL_VERSION} (a request without it is read as 0.3).`), id));
      }
      const handle = await handleOf(request);
      await streams.serve(async (finish) => {
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const agent = new BundleAgent(options.agent, {
          principal: principalOf(request),
          handle,
          card: agentCardOf(handle, requestOrigin(request), options.auth),
          requestId: request.id,
          signal: gone.signal,
          finish,
        });
        const answer = await new JsonRpcTransportHandler(agent).handle(screened.request, new ServerCallContext({ requestedVersion: version }));
        if (agent.refusal !== undefined) {
          counted(method, 'refused');
          await sendProblem(reply, agent.refusal);
        } else if (!isStream(answer)) {
          counted(method, answer.error !== undefined ? 'error' : 'ok');
          await reply.code(200).type('application/json').send(answer);
        } else {
          await pumpStream(reply, answer, { id, agent, options, counted: (outcome) => counted(method, outcome) });
        }
      });
      return reply;
    });
  });
}

type RpcAnswer = { jsonrpc: string; id: RpcId; result?: unknown; error?: unknown };

function isStream(answer: RpcAnswer | AsyncGenerator<RpcAnswer, void, undefined>): answer is AsyncGenerator<RpcAnswer, void, undefined> {
  return typeof (answer as Partial<AsyncGenerator<RpcAnswer>>)[Symbol.asyncIterator] === 'function';
}

/**
 * A streamed answer: its first event decides (an error before it is a plain JSON-RPC error, a refusal
 * the HTTP problem); then SSE, each event one JSON-RPC response, an error during it one error response.
 */
async function pumpStream(
  reply: FastifyReply,
  answer: AsyncGenerator<RpcAnswer, void, undefined>,
  call: { readonly id: RpcId; readonly agent: BundleAgent; readonly options: A2aRoutesOptions; readonly counted: (outcome: 'ok' | 'error' | 'refused') => void },
): Promise<void> {
  const { agent, options, id } = call;
  let first: IteratorResult<RpcAnswer, void>;
  try {
    first = await answer.next();
  } catch (error) {
    const mapped = toA2aError(error, options.log);
    if (agent.refusal !== undefined) {
      call.counted('refused');
      await sendProblem(reply, agent.refusal);
    } else {
      call.counted('error');
      await reply.code(200).type('application/json').send(errorResponse(mapped, id));
    }
    return;
  }
  call.counted('ok');
  const sse = openSseStream(hijackReply(reply), {
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    onError: (err) => options.log.warn({ err }, 'an A2A stream write failed'),
  });
  try {
    if (first.done !== true && !sse.send(first.value)) return;
    for (;;) {
      const next = await answer.next();
      if (next.done === true || !sse.send(next.value)) return;
    }
  } catch (error) {
    sse.send(errorResponse(toA2aError(error, options.log), id));
  } finally {
    sse.close();
    await answer.return(undefined).catch(() => undefined);
  }
}

function sendRpc(reply: FastifyReply, response: RpcErrorResponse, count?: () => void): FastifyReply {
  count?.();
  return reply.code(200).type('application/json').send(response);
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function bodyRefusal(error: FastifyError, bodyLimit: number): string {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return `The request is over ${bodyLimit} bytes.`;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Send the request with Content-Type: application/json.';
  return 'The request could not be read as one JSON-RPC request.';
}
