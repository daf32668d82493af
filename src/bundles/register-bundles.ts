// Wires the bundle plane from the AppContext: stores on the injected clock, the agent runtime (bound
// as the host's delegate_task runner), the background dispatcher, the sweeper, the routes. Every
// piece is built here; nothing is a module-level singleton.
import { ConcurrencySlots } from '../platform/rate-limit/index.js';
import { startSweeper } from '../platform/store/index.js';
import type { App } from '../platform/http/index.js';
import type { AppContext } from '../app-context.js';
import type { ActiveRun } from './active-runs.js';
import { ActiveRuns } from './active-runs.js';
import { AgentRuntime } from './agent-runtime.js';
import { ConversationStore } from './conversation-store.js';
import { DelegationScopes } from './delegation-scopes.js';
import { Dispatcher } from './dispatcher.js';
import { HandleStore } from './handle-store.js';
import { HostAgents } from './host-agents.js';
import { registerBundleRoutes } from './routes.js';
import { RunExecutor } from './run-executor.js';
import { RunStore } from './run-store.js';
import { BundleService } from './service.js';
import { StagingLeases } from './staging-leases.js';

export async function registerBundles(app: App, context: AppContext): Promise<BundleService> {
  const { config, clock, ids } = context;
  const bundles = config.bundleExecution;
  const logger = context.logger.child({ feature: 'bundles' });
  const log = {
    info: (details: object, message: string) => logger.info(details, message),
    warn: (details: object, message: string) => logger.warn(details, message),
    error: (details: object, message: string) => logger.error(details, message),
  };

  const leases = new StagingLeases({ log });
  const handles = new HandleStore({ clock, handleTtlMs: bundles.handleTtlMs, leases });
  const runs = new RunStore({ clock, runRecordTtlMs: bundles.runRecordTtlMs });
  const active = new ActiveRuns({ maxActivePerOwner: bundles.maxActiveBundleRunsPerOwner });
  const conversations = new ConversationStore({
    clock,
    limits: {
      ttlMs: config.conversations.ttlMs,
      maxHistoryMessages: config.conversations.maxHistoryMessages,
      maxHistoryBytes: config.conversations.maxHistoryBytes,
      maxLifetimeTokens: config.conversations.maxLifetimeTokens,
    },
  });
  const runtime = new AgentRuntime({
    chatModel: context.chatModel,
    registry: context.registry,
    governor: context.governor,
    validator: context.validator,
    ids,
    hostAgents: new HostAgents({ discoveryPaths: config.agents.discoveryPaths, log }),
    scopes: new DelegationScopes(),
    limits: {
      maxModelCallsPerTurn: config.conversations.maxModelCallsPerTurn,
      frameCeilingBytes: bundles.streamFrameCeilingBytes,
      maxToolResultBytes: config.conversations.maxToolResultBytes,
      maxLifetimeTokens: config.conversations.maxLifetimeTokens,
    },
    log,
  });
  context.delegateTask.bind(runtime.delegate);
  const executor = new RunExecutor({ clock, runs, active, handles, conversations, runtime, log });
  const dispatcher = new Dispatcher<ActiveRun>({
    maxConcurrent: bundles.maxConcurrentDispatchedBundleRuns,
    execute: (run) => {
      run.claimed = true;
      return executor.execute(run);
    },
    onError: (err) => log.error({ err }, 'bundle dispatcher failed'),
  });
  const service = new BundleService({
    config: bundles,
    discoveryPaths: [...config.agents.discoveryPaths, ...config.skills.discoveryPaths],
    clock,
    ids,
    handles,
    runs,
    active,
    conversations,
    executor,
    dispatcher,
    streamSlots: new ConcurrencySlots({ limitPerKey: bundles.maxConcurrentStreamsPerCaller }),
    log,
  });

  const sweeper = startSweeper({
    intervalMs: bundles.cleanupIntervalMs,
    sweep: () => service.sweep(),
    onError: (err) => log.warn({ err }, 'bundle sweep failed'),
  });
  context.onClose(async () => {
    sweeper.stop();
    await service.shutdown();
    await leases.close();
  });

  await registerBundleRoutes(app, { service, enabled: bundles.enabled, maxArchiveBytes: bundles.maxArchiveBytes });
  return service;
}
