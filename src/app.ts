// Composition root: builds the stores, registries and providers from the typed config, registers the
// platform hooks and every feature's routes, and runs the one ordered shutdown: the schedule ticker
// stops, the run engine stops (drained, or settled), then each feature's open streams end, then the server closes, then each
// feature's sweepers and held resources, the tool plane, the authenticator, tracing and the storage.
// The only place that wires things up.
import { policyCatalog, startPolicies } from './policies/start-policies.js';
import { registerPolicyRoutes } from './policies/routes.js';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { access } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from './platform/config/types.js';
import { createAuthenticator, type Authenticator } from './platform/auth/index.js';
import { systemClock, randomIds, type Clock, type IdGenerator } from './platform/clock/index.js';
import type { Logger } from './platform/log/index.js';
import { IdempotencyStore } from './platform/idempotency/index.js';
import {
  clientErrorHandler,
  decodableUrl,
  installAuthentication,
  installProblemHandlers,
  installRequestIds,
  generateRequestId,
  installRateLimits,
  installIdempotency,
  bodyFingerprint,
  IDEMPOTENCY_HEADER,
  limitConnections,
  RequestLogController,
  requestLogger,
  HttpRequestMetrics,
  buildResponseSerializers,
  parseJsonBody,
  ProblemDetailsSchema,
  sendProblem,
  registerSwitchedOff,
  type App,
} from './platform/http/index.js';
import { registerSystemRoutes, type ReadinessCategory, type ReadinessCheck } from './system/routes.js';
import { hostFamilies, registerCapabilitiesRoutes, registerSpendRoute } from './capabilities/index.js';
import { buildOpenApiOptions } from './openapi.js';
import { ProblemError } from './platform/problems/index.js';
import type { AppContext, FeatureShutdown } from './app-context.js';
import { createChatModel, observeChatModel, type ChatModel } from './models/index.js';
import { ServiceMetrics } from './platform/metrics/index.js';
import { startTracing, TRACING_DISABLED, type Tracing } from './platform/tracing/index.js';
import { AuditLog } from './platform/audit/index.js';
import { RUN_FAMILIES, runTelemetry } from './platform/telemetry/index.js';
import { AccessPolicy } from './platform/access/index.js';
import { Approvals, ApprovalStore, registerApprovalRoutes } from './approvals/index.js';
import { packageInfo } from './platform/package-info/index.js';
import { rateLimitPolicies } from './platform/config/types.js';
import { SharedSlots } from './platform/rate-limit/index.js';
import { createMemoryStorage, type Storage } from './platform/storage/index.js';
import { RunEngine } from './runs/index.js';
import { startSweeper } from './platform/store/index.js';
import { createBuiltinTools } from './tools/builtin/index.js';
import { McpServerManager, type McpServerStatus } from './tools/mcp/index.js';
import { CatalogService, GovernedCalls, ParameterValidator, ToolRegistry, registerToolRoutes } from './tools/index.js';
import { registerWorkflows } from './workflows/index.js';
import { registerEvals } from './evals/index.js';
import { registerBundles } from './bundles/index.js';
import { registerConsole } from './console/index.js';
import { registerSchedules, type TickWaiter } from './schedules/index.js';
import { createWebhooks } from './webhooks/index.js';
import { SpendLedger } from './platform/spend/index.js';
import { keepTickShape } from './platform/runtime/index.js';

export interface AppDependencies {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Replaces the authenticator built from config (tests inject failures). */
  readonly authenticator?: Authenticator;
  /** Replaces the chat model built from config (null: none). */
  readonly chatModel?: ChatModel | null;
  /** The storage opened from config.storage by whoever builds the app (they close it); default a fresh Memory storage the app closes. */
  readonly storage?: Storage;
  /** This process's id as lease and slot holder (default: random). */
  readonly instanceId?: string;
  /** Folder of the built web console (default: dist/console under the package root). */
  readonly consoleRoot?: string;
  /** Replaces the tracing started from config.observability.tracing (the caller shuts it down). */
  readonly tracing?: Tracing;
  /** How the schedule ticker waits between passes (tests step it with ManualTicks). */
  readonly scheduleTicks?: TickWaiter;
}

/** What `portcullis serve` reports at start-up beyond the configuration: whether each MCP server connects, and on which revision. */
export interface StartupProbe {
  mcpServers(signal?: AbortSignal): Promise<Record<string, McpServerStatus>>;
}

/** The built service: the Fastify app to listen with, what the start-up banner asks, and what SIGHUP does. */
export interface BuiltApp {
  readonly app: App;
  readonly probe: StartupProbe;
  /** Re-reads the policy files (DESIGN §18); an invalid set is refused (logged) and the previous one stays. Nothing without policies. */
  readonly reload: () => Promise<void>;
}

/** How long stopping lets live runs drain (or settle) before they are stopped where they are. */
const STOP_GRACE_MS = 5_000;
/** How long open streams get to send what they have once the runs stopped. */
const STREAM_GRACE_MS = 2_000;

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Far above any URL Node's HTTP parser accepts (its header limit, 16 KiB by default). */
const MAX_URL_PARAMETER_LENGTH = 1024 * 1024;

function readableRoot(category: ReadinessCategory, path: string): ReadinessCheck {
  return { category, check: () => access(path).then(() => true, () => false) };
}

/** How often, with approvals on, overdue approvals expire and waiting ones escalate. */
const APPROVAL_SWEEP_MS = 1_000;

export async function buildApp(deps: AppDependencies): Promise<BuiltApp> {
  const { config, logger } = deps;
  // `portcullis serve` held it before loading (cli/main.ts); an embedder's process gets it here.
  keepTickShape();
  const clock = deps.clock ?? systemClock;
  // Observability first: the request log controller counts into the metrics from the first request.
  const metrics = new ServiceMetrics({ enabled: config.observability.metrics.enabled });
  const tracing = deps.tracing ?? (config.observability.tracing.enabled ? await startTracing(config.observability.tracing, packageInfo().version) : TRACING_DISABLED);
  const audit = new AuditLog({ info: (o: object, m: string) => logger.info(o, m) });

  const app = Fastify({
    // Fastify infers its logger type from this option; App is typed with the base logger interface.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: logger as FastifyBaseLogger,
    requestTimeout: config.http.requestTimeoutMs,
    bodyLimit: DEFAULT_BODY_LIMIT,
    forceCloseConnections: true,
    // One line of chosen fields per request: Fastify's own lines carry framework objects.
    logController: new RequestLogController(metrics.enabled ? new HttpRequestMetrics(metrics) : null),
    // Requests that arrive while closing are answered by the request-id hook (a 503 problem with its id).
    return503OnClosing: false,
    genReqId: generateRequestId,
    // A request's child logger is made only when something logs for it besides its request line.
    childLoggerFactory: requestLogger,
    // No bound of the router's own: Node's header limit bounds a URL, and a path id of any length
    // reaches its route, so it is authenticated and answered as the unknown id it is (path-id.ts).
    routerOptions: { maxParamLength: MAX_URL_PARAMETER_LENGTH },
    // What Node's parser refuses (malformed, oversized headers, unknown methods) is a problem document too.
    clientErrorHandler,
    // A path segment whose escapes do not decode reaches its route as an id that cannot exist (404
    // after authentication), not the router's 400 before it (decodable-url.ts, DESIGN §17).
    rewriteUrl: (request) => decodableUrl(request.url ?? '/'),
    // Errors the router still raises before any route runs (a URL it cannot read) are problem documents too.
    frameworkErrors: (_error, _request, reply) => void sendProblem(reply, new ProblemError('validation-failed', 'The request URL is malformed.')),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: true } },
    // Response serializers that need no ajv run per response (same bytes; schemas untouched).
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      // The fingerprint an Idempotency-Key compares (DESIGN.md §14): the body's bytes, taken only when keyed.
      if (request.headers[IDEMPOTENCY_HEADER] !== undefined) request.bodyDigest = bodyFingerprint(body as Buffer);
      done(null, parseJsonBody(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // Hook order: request ids first (every answer echoes one), then a wrong method's 405, then authentication.
  installRequestIds(app, tracing);
  installProblemHandlers(app);
  limitConnections(app.server, config.http);
  app.addSchema(ProblemDetailsSchema);
  await app.register(swagger, buildOpenApiOptions());
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });

  const authFailures = new Map<string, { inc(): void }>();
  const authenticator =
    deps.authenticator ??
    createAuthenticator(config.bundleExecution.auth, {
      clock,
      log: { warn: (o: object, m: string) => logger.warn(o, m), info: (o: object, m: string) => logger.info(o, m), debug: (o: object, m: string) => logger.debug(o, m) },
      onFailure: (category) => {
        let child = authFailures.get(category);
        if (child === undefined) authFailures.set(category, (child = metrics.authFailures.child(category)));
        child.inc();
      },
    });
  installAuthentication(app, authenticator);

  const storage = deps.storage ?? createMemoryStorage({ clock });
  const engine = new RunEngine({
    storage,
    instanceId: deps.instanceId ?? randomBytes(9).toString('base64url'),
    leaseTtlMs: config.storage.runLeaseTtlMs,
    log: { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m), error: (o: object, m: string) => logger.error(o, m) },
    ...(metrics.enabled || tracing.enabled ? { observe: runTelemetry({ metrics, tracing }) } : {}),
  });
  const refusals = Object.fromEntries(rateLimitPolicies.map((policy) => [policy, metrics.rateLimitRefusals.child(policy)]));
  installRateLimits(app, storage.rates, config.rateLimits, metrics.enabled ? (policy) => refusals[policy]?.inc() : undefined);
  const idempotency = new IdempotencyStore({ storage, clock: storage.clock, ttlMs: config.idempotency.ttlMs });
  installIdempotency(app, idempotency, { warn: (o: object, m: string) => logger.warn(o, m) });

  const log = { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m) };
  const mcp = new McpServerManager(config.mcpServers, {
    callTimeoutMs: config.directToolInvocation.defaultTimeoutSeconds * 1000,
    log,
    clock,
    ...(tracing.enabled ? { fetch: tracing.propagatingFetch(globalThis.fetch) } : {}),
  });

  const readiness: ReadinessCheck[] = [
    { category: 'identity', check: () => authenticator.ready() },
    { category: 'storage', check: () => storage.ready() },
    ...(mcp.servers().length === 0 ? [] : [{ category: 'mcpServers' as const, check: async () => Object.values(await mcp.status()).every((server) => server.connected) }]),
    ...config.evaluation.datasetRoots.map((root) => readableRoot('datasetRoots', root)),
    ...Object.values(config.retrieval.indexes).map((index) => readableRoot('retrievalIndexes', index.root)),
  ];
  registerSystemRoutes(app, { readiness, metrics });
  // The web console (static files and its sign-in document; no API route): src/console.
  if (config.console.enabled) await registerConsole(app, { config, ...(deps.consoleRoot === undefined ? {} : { root: deps.consoleRoot }) });

  const builtins = await createBuiltinTools(config, { clock, log, storage });
  const registry = new ToolRegistry(builtins.tools, mcp);
  // Policies (DESIGN §18), validated against the catalog before anything else starts: an invalid set stops start-up.
  const policies = await startPolicies(config.policies, { registry, storage, clock, log }).catch(async (error: unknown) => {
    await registry.close();
    await builtins.knowledge.close();
    throw error;
  });
  const idempotencySweeper = startSweeper({ intervalMs: config.bundleExecution.cleanupIntervalMs, name: 'the idempotency key sweep', log, sweep: () => idempotency.sweep() });
  const memorySweeper = startSweeper({ intervalMs: config.bundleExecution.cleanupIntervalMs, name: 'the memory tool sweep', log, sweep: () => builtins.sweepMemory() });
  const validator = new ParameterValidator();
  const calls = new GovernedCalls({ registry, validator, log, metrics, tracing, approvalsEnabled: config.approvals.enabled, ...(policies === undefined ? {} : { policies }) });
  const access = new AccessPolicy({ envelopes: config.bundleExecution.envelopes, audit });
  const catalog = new CatalogService({ registry, access });
  // One set of invocation slots: a caller's four executing calls count over HTTP and the MCP gateway alike.
  const invocation = {
    calls,
    access,
    config: config.directToolInvocation,
    slots: new SharedSlots({
      slots: storage.slots,
      kind: 'tool-invocation',
      limitPerKey: config.directToolInvocation.maxConcurrentPerCaller,
      holder: engine.instanceId,
      ttlMs: engine.leaseTtlMs,
    }),
    clock: storage.clock,
  };
  registerToolRoutes(app, { catalog, ...invocation });
  // The MCP gateway (DESIGN.md §15), loaded only when served: the MCP server package is not small.
  const mcpGateway = config.mcpGateway.enabled
    ? (await import('./mcp-gateway/index.js')).registerMcpGateway(app, {
        catalog,
        invoke: invocation,
        auth: config.bundleExecution.auth,
        log: { info: (o: object, m: string) => logger.info(o, m), error: (o: object, m: string) => logger.error(o, m) },
      })
    : registerSwitchedOff(app, ['/mcp'], 'The MCP gateway is off on this host (AppConfig:AI:McpGateway:Enabled is false).');
  const ids = deps.ids ?? randomIds;
  // Webhooks first: every family writes its events to their outbox (DESIGN.md §14).
  const webhooks = createWebhooks({
    config: config.webhooks,
    storage,
    clock: storage.clock,
    ids,
    metrics,
    instanceId: engine.instanceId,
    leaseTtlMs: engine.leaseTtlMs,
    cleanupIntervalMs: config.bundleExecution.cleanupIntervalMs,
    log,
  });
  const approvals = new Approvals({ config: config.approvals, store: new ApprovalStore({ storage }), clock: storage.clock, audit, metrics, log, events: webhooks.outbox });
  registerApprovalRoutes(app, approvals);
  // With approvals on, expiry and escalation are timely (a bundle run waits on its approval's expiry); off, only gates' records are swept.
  const approvalSweeper = startSweeper({
    intervalMs: config.approvals.enabled ? APPROVAL_SWEEP_MS : config.bundleExecution.cleanupIntervalMs,
    name: 'the approval sweep',
    log,
    sweep: () => approvals.sweep(),
  });
  registerPolicyRoutes(app, { access, registry, approvalsEnabled: config.approvals.enabled, policies });
  registerCapabilitiesRoutes(app, {
    access,
    hostTools: async (signal) => (await registry.all(signal)).map((tool) => ({ name: tool.descriptor.name, riskTier: tool.descriptor.riskTier })),
    approvalsEnabled: config.approvals.enabled,
    families: hostFamilies(config),
    policy: () => (policies === undefined ? null : { mode: policies.mode, version: policies.version }),
  });

  // Spend limits (DESIGN §16): every family meters its runs' model calls through the one ledger.
  const spend = new SpendLedger({
    counters: storage.spend,
    records: storage.records,
    clock: storage.clock,
    pricing: config.chatModel.pricing,
    spendUsd: metrics.spendUsd,
    audit,
    events: webhooks.outbox,
  });
  registerSpendRoute(app, { access, spend });
  const spendSweeper = startSweeper({ intervalMs: config.bundleExecution.cleanupIntervalMs, name: 'the spend threshold sweep', log, sweep: () => spend.sweep() });
  // Every model call is counted (and traced) in one place, whatever the provider.
  const observed = (model: ChatModel | null): ChatModel | null =>
    model === null || !(metrics.enabled || tracing.enabled) ? model : observeChatModel(model, { metrics, tracing, pricing: config.chatModel.pricing });
  const context: AppContext = {
    config,
    logger,
    metrics,
    tracing,
    audit,
    // Everything stored is judged on the storage's clock (on PostgreSQL, the database's).
    clock: storage.clock,
    ids,
    access,
    chatModel: observed(
      deps.chatModel !== undefined
        ? deps.chatModel
        : createChatModel(config.chatModel, {
            log,
            clock,
            // The SDK providers send the trace context through fetch; the OpenAI provider (node:http) as headers.
            ...(tracing.enabled ? { fetch: tracing.propagatingFetch(globalThis.fetch), requestHeaders: () => tracing.propagationHeaders() } : {}),
          }),
    ),
    calls,
    registry,
    validator,
    knowledge: builtins.knowledge,
    delegateTask: builtins.delegateTask,
    storage,
    engine,
    approvals,
    idempotency,
    events: webhooks.outbox,
    spend,
  };
  // Feature families (each registers its routes, stores, run kind and sweepers, and hands back what
  // shutdown must finish and close):
  // features:start
  const bundles = await registerBundles(app, context);
  // A2A (DESIGN §20), loaded only when served: each live handle as an A2A agent of its owner.
  const a2a = config.a2a.enabled
    ? await (await import('./a2a/index.js')).registerA2a(app, context, bundles.agents)
    : registerSwitchedOff(app, ['/a2a/*'], 'A2A is off on this host (AppConfig:AI:A2A:Enabled is false).');
  const evals = await registerEvals(app, context, { bundles: bundles.turns, bundleRuns: bundles.finishedRuns });
  const workflows = await registerWorkflows(app, context);
  // A schedule's fire starts a run through the family's own start: every check and cap a request meets.
  const schedules = registerSchedules(app, context, {
    targets: {
      startWorkflow: (runAs, workflowId, input) => workflows.startRun(runAs, workflowId, input),
      startEval: (runAs, request) => evals.startRun(runAs, request),
      workflowExists: (owner, workflowId) => workflows.workflowExists(owner, workflowId),
      datasetsExist: (owner, names) => evals.datasetsExist(owner, names),
    },
    ...(deps.scheduleTicks === undefined ? {} : { waiter: deps.scheduleTicks }),
  });
  const features: FeatureShutdown[] = [bundles, evals, workflows, schedules, webhooks.register(app), ...(mcpGateway === undefined ? [] : [mcpGateway]), ...(a2a === undefined ? [] : [a2a])];
  // features:end
  engine.start();
  schedules.start();
  for (const [collection, family] of Object.entries(RUN_FAMILIES)) {
    metrics.runsQueued.child(family).track(() => engine.load(collection).queued);
  }

  // The one shutdown sequence. Before connections drop: the runs stop (drained on a shared storage,
  // settled on one nobody shares), then the open streams end with what the runs committed.
  app.addHook('preClose', async () => {
    for (const feature of features) await feature.stopStarting?.();
    await engine.stop(STOP_GRACE_MS);
    for (const feature of features) await feature.endStreams?.(STREAM_GRACE_MS);
  });
  // After the server closed: sweepers and staging, the tool plane, the authenticator, tracing, the storage.
  app.addHook('onClose', async () => {
    await engine.stop(STOP_GRACE_MS);
    memorySweeper.stop();
    idempotencySweeper.stop();
    approvalSweeper.stop();
    spendSweeper.stop();
    for (const feature of features) await feature.close?.();
    await registry.close();
    await builtins.knowledge.close();
    authenticator.close();
    if (deps.tracing === undefined) await tracing.shutdown();
    if (deps.storage === undefined) await storage.close();
  });
  return { app, probe: { mcpServers: (signal) => mcp.status(signal) }, reload: async () => void (await policies?.reload(await policyCatalog(registry))) };
}
