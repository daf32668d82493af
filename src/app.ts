// Composition root: builds the stores, registries and providers from the typed config and
// registers the platform hooks and every feature's routes. The only place that wires things up.
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
import {
  clientErrorHandler,
  installAuthentication,
  installProblemHandlers,
  installRequestIds,
  generateRequestId,
  installRateLimits,
  limitConnections,
  RequestLogController,
  buildResponseSerializers,
  parseJsonBody,
  ProblemDetailsSchema,
  sendProblem,
  type App,
} from './platform/http/index.js';
import { registerSystemRoutes, type ReadinessCheck } from './system/routes.js';
import { registerCapabilitiesRoutes } from './capabilities/index.js';
import { buildOpenApiOptions } from './openapi.js';
import { ProblemError } from './platform/problems/index.js';
import type { AppContext } from './app-context.js';
import { createChatModel, type ChatModel } from './models/index.js';
import { SharedSlots } from './platform/rate-limit/index.js';
import { createMemoryStorage, type Storage } from './platform/storage/index.js';
import { RunEngine } from './runs/index.js';
import { startSweeper } from './platform/store/index.js';
import { createBuiltinTools } from './tools/builtin/index.js';
import { McpServerManager } from './tools/mcp/index.js';
import { ParameterValidator, ToolGovernor, ToolRegistry, registerToolRoutes } from './tools/index.js';
import { registerWorkflows } from './workflows/index.js';
import { registerEvals } from './evals/index.js';
import { registerBundles } from './bundles/index.js';
import { registerConsole } from './console/index.js';

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
}

/** DESIGN §11 RunLeaseTtl default. */
const DEFAULT_RUN_LEASE_TTL_MS = 15_000;
/** How long stopping waits for live runs to settle. */
const STOP_GRACE_MS = 5_000;

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

function readableRoot(name: string, path: string): ReadinessCheck {
  return { name, check: () => access(path).then(() => true, () => false) };
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const { config, logger } = deps;
  const clock = deps.clock ?? systemClock;

  const app = Fastify({
    // Fastify infers its logger type from this option; App is typed with the base logger interface.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: logger as FastifyBaseLogger,
    requestTimeout: config.http.requestTimeoutMs,
    bodyLimit: DEFAULT_BODY_LIMIT,
    forceCloseConnections: true,
    // One line of chosen fields per request: Fastify's own lines carry framework objects.
    logController: new RequestLogController(),
    // Requests that arrive while closing are answered by the request-id hook (a 503 problem with its id).
    return503OnClosing: false,
    genReqId: generateRequestId,
    routerOptions: { maxParamLength: 512 },
    // What Node's parser refuses (malformed, oversized headers, unknown methods) is a problem document too.
    clientErrorHandler,
    // Errors the router raises before any route runs (bad percent-escapes, over-long path
    // parameters) are problem documents too, and never echo the path.
    frameworkErrors: (error, _request, reply) => {
      const code = (error as { code?: string }).code;
      void sendProblem(
        reply,
        code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ProblemError('not-found', 'No resource exists at this path.')
          : new ProblemError('validation-failed', 'The request URL is malformed.'),
      );
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: true } },
    // Response serializers that need no ajv run per response (same bytes; schemas untouched).
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  installProblemHandlers(app);
  installRequestIds(app);
  limitConnections(app.server, config.http);
  app.addSchema(ProblemDetailsSchema);
  await app.register(swagger, buildOpenApiOptions());
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });

  const authenticator =
    deps.authenticator ??
    createAuthenticator(config.bundleExecution.auth, {
      clock,
      log: { warn: (o: object, m: string) => logger.warn(o, m), debug: (o: object, m: string) => logger.debug(o, m) },
    });
  app.addHook('onClose', async () => authenticator.close());
  installAuthentication(app, authenticator);

  const storage = deps.storage ?? createMemoryStorage({ clock });
  const engine = new RunEngine({
    storage,
    clock,
    instanceId: deps.instanceId ?? randomBytes(9).toString('base64url'),
    leaseTtlMs: DEFAULT_RUN_LEASE_TTL_MS,
    log: { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m), error: (o: object, m: string) => logger.error(o, m) },
  });
  installRateLimits(app, storage.rates, config.rateLimits);

  const readiness: ReadinessCheck[] = [
    { name: 'identity', check: () => authenticator.ready() },
    { name: 'storage', check: () => storage.ready() },
    ...config.evaluation.datasetRoots.map((root, i) => readableRoot(`datasetRoot[${i}]`, root)),
    ...Object.entries(config.retrieval.indexes).map(([name, index]) => readableRoot(`index:${name}`, index.root)),
  ];
  registerSystemRoutes(app, { readiness });
  // The web console (static files and its sign-in document; no API route): src/console.
  if (config.console.enabled) await registerConsole(app, { config, ...(deps.consoleRoot === undefined ? {} : { root: deps.consoleRoot }) });

  const log = { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m) };
  const closeHooks: Array<() => Promise<void>> = [];
  const builtins = await createBuiltinTools(config, { clock, log, storage });
  const memorySweeper = startSweeper({
    intervalMs: config.bundleExecution.cleanupIntervalMs,
    sweep: () => builtins.sweepMemory(),
    onError: (err) => logger.warn({ err }, 'memory tool sweep failed'),
  });
  closeHooks.push(async () => memorySweeper.stop());
  const mcp = new McpServerManager(config.mcpServers, {
    callTimeoutMs: config.directToolInvocation.defaultTimeoutSeconds * 1000,
    log,
    clock,
  });
  const registry = new ToolRegistry(builtins.tools, mcp);
  app.addHook('onClose', async () => {
    await registry.close();
    await builtins.knowledge.close();
  });
  const governor = new ToolGovernor({ log });
  const validator = new ParameterValidator();
  registerToolRoutes(app, {
    registry,
    governor,
    validator,
    envelopes: config.bundleExecution.envelopes,
    config: config.directToolInvocation,
    slots: new SharedSlots({
      slots: storage.slots,
      kind: 'tool-invocation',
      limitPerKey: config.directToolInvocation.maxConcurrentPerCaller,
      holder: engine.instanceId,
      ttlMs: engine.leaseTtlMs,
    }),
    clock,
  });
  registerCapabilitiesRoutes(app, {
    envelopes: config.bundleExecution.envelopes,
    hostToolNames: async (signal) => (await registry.all(signal)).map((tool) => tool.descriptor.name),
  });

  const context: AppContext = {
    config,
    logger,
    clock,
    ids: deps.ids ?? randomIds,
    chatModel: deps.chatModel !== undefined ? deps.chatModel : createChatModel(config.chatModel, { log, clock }),
    registry,
    governor,
    validator,
    knowledge: builtins.knowledge,
    delegateTask: builtins.delegateTask,
    storage,
    engine,
    stopRuns: () => engine.stop(STOP_GRACE_MS),
    onClose: (hook) => closeHooks.push(hook),
  };
  // Feature families (each registers its routes, stores, run kind and sweepers):
  // features:start
  await registerBundles(app, context);
  await registerEvals(app, context);
  await registerWorkflows(app, context);
  // features:end
  engine.start();

  // One close hook, in order: the families' own, then the run engine, then the storage they all use
  // (when the app opened it).
  app.addHook('onClose', async () => {
    for (const hook of closeHooks) await hook();
    await engine.stop(STOP_GRACE_MS);
    if (deps.storage === undefined) await storage.close();
  });
  return app;
}
