// Wires the bundle plane from the AppContext: handle, run and conversation stores on the storage port,
// the agent runtime (bound as the host's delegate_task runner), the bundle run kind on the shared run
// engine, the sweeper (which also removes what crashed processes of this host left in TempRoot), the
// routes. Every piece is built here; nothing is a module-level singleton.
import type { AppContext } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { SharedSlots } from '../platform/rate-limit/index.js';
import { startSweeper } from '../platform/store/index.js';
import { StorageLock, type LocalEventLog } from '../runs/index.js';
import { AgentRuntime } from './agents/agent-runtime.js';
import { DelegationScopes } from './agents/delegation-scopes.js';
import { HostAgents } from './agents/host-agents.js';
import { ConversationStore } from './conversations/conversation-store.js';
import { HandleStore } from './handles/handle-store.js';
import { StagingLeases } from './handles/staging-leases.js';
import { registerBundleRoutes } from './routes.js';
import type { BundleFrame } from './runs/bundle-frame.js';
import { bundleRunKind } from './runs/bundle-run-kind.js';
import { RunExecutor } from './runs/run-executor.js';
import { RunStore } from './runs/run-store.js';
import { BundleService } from './service.js';

export async function registerBundles(app: App, context: AppContext): Promise<BundleService> {
  const { config, clock, ids, storage, engine } = context;
  const bundles = config.bundleExecution;
  const logger = context.logger.child({ feature: 'bundles' });
  const log = {
    info: (details: object, message: string) => logger.info(details, message),
    warn: (details: object, message: string) => logger.warn(details, message),
    error: (details: object, message: string) => logger.error(details, message),
  };

  const staging = new StagingLeases({ log });
  const runs = new RunStore({ storage, runRecordTtlMs: bundles.runRecordTtlMs, clock });
  const conversations = new ConversationStore({
    storage,
    clock,
    lock: new StorageLock({ storage, kind: 'conversation', holder: engine.instanceId, ttlMs: engine.leaseTtlMs }),
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
  const frameLogs = new Map<string, LocalEventLog<BundleFrame>>();
  const handles = new HandleStore({
    storage,
    clock,
    handleTtlMs: bundles.handleTtlMs,
    staging,
    // Bound late: the service is built below and restaging only ever happens once it serves.
    restage: (handle, archive) => bundleService.restage(handle, archive),
  });
  const executor = new RunExecutor({ clock, runs, handles, conversations, runtime, frameLog: (jobId) => frameLogs.get(jobId), log });
  engine.register(
    bundleRunKind({
      clock,
      runs,
      maxConcurrent: bundles.maxConcurrentDispatchedBundleRuns,
      holder: engine.instanceId,
      durable: storage.durable,
      execute: (run) => executor.execute(run),
    }),
  );
  const bundleService: BundleService = new BundleService({
    config: bundles,
    discoveryPaths: [...config.agents.discoveryPaths, ...config.skills.discoveryPaths],
    clock,
    ids,
    handles,
    staging,
    runs,
    conversations,
    engine,
    frameLogs,
    streamSlots: new SharedSlots({
      slots: storage.slots,
      kind: 'bundle-stream',
      limitPerKey: bundles.maxConcurrentStreamsPerCaller,
      holder: engine.instanceId,
      ttlMs: engine.leaseTtlMs,
    }),
    durable: storage.durable,
    log,
  });
  await bundleService.removeLeftovers().catch((err: unknown) => log.warn({ err }, 'removing leftover staging folders failed'));

  const sweeper = startSweeper({
    intervalMs: bundles.cleanupIntervalMs,
    sweep: () => bundleService.sweep(),
    onError: (err) => log.warn({ err }, 'bundle sweep failed'),
  });
  context.onClose(async () => {
    sweeper.stop();
    await context.stopRuns();
    await staging.close();
  });

  await registerBundleRoutes(app, {
    service: bundleService,
    enabled: bundles.enabled,
    maxArchiveBytes: bundles.maxArchiveBytes,
    stopRuns: () => context.stopRuns(),
    metrics: context.metrics,
    audit: context.audit,
    envelopes: bundles.envelopes,
  });
  return bundleService;
}
