// `createClient` of `portcullis/client`: the openapi-fetch client typed by the paths generated from
// the service's own OpenAPI document (every operation, its parameters, bodies and answers), with the
// bearer token on every request and problem answers thrown as PortcullisProblem; creates carry an
// Idempotency-Key and are retried with it (keyed-creates.ts); plus the three stream helpers. It holds no
// state beyond its options.
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { PortcullisProblem } from './portcullis-problem.js';
import { runAgui, bundleRunEvents, type AguiEvent, type RunAgentInput } from './agui-events.js';
import { workflowProgress, type WorkflowProgressEvent, type WorkflowProgressOptions } from './workflow-progress.js';
import { evalProgress, type EvalProgressOptions, type EvalRun } from './eval-progress.js';
import type { Transport } from './transport.js';
import { keyedCreates } from './keyed-creates.js';
import { registerBundle, type RegisteredBundle } from './register-bundle.js';

export interface ClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8080` (a trailing slash is fine). */
  readonly baseUrl: string;
  /** A bearer token (omit in anonymous Development mode). */
  readonly token?: string;
  /** Extra headers on every request (e.g. `x-request-id`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Creates (uploads, run starts, submits, decisions) carry an `Idempotency-Key` (a UUID unless set)
   * and are retried with it after a dropped connection, a 502/503/504 or `409 Request in progress`
   * (DESIGN §14): `retries` (default 2) and the first `delayMs` (default 250, doubled each time).
   */
  readonly createRetries?: { readonly retries?: number; readonly delayMs?: number };
}

export type PortcullisApi = Client<paths>;

export interface PortcullisClient {
  /** Every operation of the document, typed: `api.GET('/api/evals/runs/{jobId}', { params: { path: { jobId } } })`. */
  readonly api: PortcullisApi;
  /** POST /api/bundles: uploads a bundle zip, answers its handle. */
  registerBundle(archive: Blob | Uint8Array, fileName?: string): Promise<RegisteredBundle>;
  /** POST /api/bundles/{handle}/agui: one AG-UI turn, its events as they arrive. */
  runAgui(handle: string, input: RunAgentInput, options?: { signal?: AbortSignal }): AsyncGenerator<AguiEvent>;
  /** GET /api/bundles/{handle}/runs/{jobId}/stream: a reserved run's AG-UI events (opening drives the run). */
  bundleRunEvents(handle: string, jobId: string, options?: { signal?: AbortSignal }): AsyncGenerator<AguiEvent>;
  /** A workflow run's progress frames, reconnecting with Last-Event-ID when the connection drops. */
  workflowProgress(workflowId: string, jobId: string, options?: WorkflowProgressOptions): AsyncGenerator<WorkflowProgressEvent>;
  /** An eval run's status and progress changes, by polling until it finishes (eval runs have no stream). */
  evalProgress(jobId: string, options?: EvalProgressOptions): AsyncGenerator<EvalRun>;
}

/** Throws the problem document of any error answer as a typed PortcullisProblem. */
const problemsAsErrors: Middleware = {
  async onResponse({ response }) {
    const problem = await PortcullisProblem.from(response);
    if (problem !== undefined) throw problem;
    return undefined;
  },
};

export function createClient(options: ClientOptions): PortcullisClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const keyed = keyedCreates(fetchImpl, baseUrl, { retries: options.createRetries?.retries ?? 2, delayMs: options.createRetries?.delayMs ?? 250 });
  const api = createFetchClient<paths>({ baseUrl, headers, fetch: keyed });
  api.use(problemsAsErrors);
  const transport: Transport = { baseUrl, headers, fetch: fetchImpl };
  return {
    api,
    registerBundle: (archive, fileName) => registerBundle(api, archive, fileName),
    runAgui: (handle, input, o) => runAgui(transport, handle, input, o),
    bundleRunEvents: (handle, jobId, o) => bundleRunEvents(transport, handle, jobId, o),
    workflowProgress: (workflowId, jobId, o) => workflowProgress(transport, workflowId, jobId, o),
    evalProgress: (jobId, o) => evalProgress(api, jobId, o),
  };
}
