// Wires the bundle plane from the AppContext: handle, run and conversation stores on the storage port,
// the stager (which also removes what crashed processes of this host left in TempRoot), the agent
// runtime, the bundle run kind on the shared run engine, the sweeper, the routes. Every piece is built
// here, in order, and nothing is a module-level singleton. Two things are bound late, because the
// pieces they need exist only now: the host's `delegate_task` tool (built with the tool plane, before
// any agent runtime) is bound to this runtime, and the approval contract is told to wake a bundle
// run through the run engine when one of its approvals is decided. Returns what shutdown must finish
// and close.
import type { AppContext, FeatureShutdown } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { SharedSlots } from '../platform/rate-limit/index.js';
import { OpenStreams } from '../platform/sse/index.js';
import { startSweeper } from '../platform/store/index.js';
import { StorageLock } from '../runs/index.js';
import { AgentRuntime } from '../agent/index.js';
import { HostAgents } from '../agent/index.js';
import { ConversationStore } from './conversations/conversation-store.js';
import { BundleTurns } from './bundle-turns.js';
import { StagingWriter } from './archive/index.js';
import { BundleStager } from './handles/bundle-stager.js';
import { HandleService } from './handles/handle-service.js';
import { HandleStore } from './handles/handle-store.js';
import { StagingLeases } from './handles/staging-leases.js';
import { registerBundleRoutes } from './routes.js';
import { BundleRunExecutor } from './runs/bundle-run-executor.js';
import { decisionOf } from '../approvals/index.js';
import { bundleRunKind } from './runs/bundle-run-kind.js';
import { BundleRunService } from './runs/bundle-run-service.js';
import { bundleRunKey, BundleRunStore } from './runs/bundle-run-store.js';
import { FinishedBundleRuns } from './runs/finished-runs.js';

/** What the A2A surface (DESIGN §20) adapts: the handles its cards describe and the runs its tasks are. */
export interface BundleAgents {
  /** BundleExecution:Enabled: off, the A2A routes refuse as the bundle routes do (403). */
  readonly enabled: boolean;
  readonly handles: HandleStore;
  readonly runs: BundleRunService;
}

/** What shutdown needs, an uploaded agent's turns and the caller's finished runs for the eval family (DESIGN §19), and the bundle agents for A2A (§20). */
export interface BundlesFeature extends FeatureShutdown {
  readonly turns: BundleTurns;
  readonly agents: BundleAgents;
  readonly finishedRuns: FinishedBundleRuns;
}

export async function registerBundles(app: App, context: AppContext): Promise<BundlesFeature> {
  const { config, clock, ids, storage, engine } = context;
  const bundles = config.bundleExecution;
  const logger = context.logger.child({ feature: 'bundles' });
  const log = {
    info: (details: object, message: string) => logger.info(details, message),
    warn: (details: object, message: string) => logger.warn(details, message),
    error: (details: object, message: string) => logger.error(details, message),
  };

  const staging = new StagingLeases({ log });
  const writer = new StagingWriter();
  const { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio } = bundles;
  const stager = new BundleStager({
    tempRoot: bundles.tempRoot,
    limits: { maxArchiveBytes, maxEntryCount, maxTotalUncompressedBytes, maxCompressionRatio },
    discoveryPaths: [...config.agents.discoveryPaths, ...config.skills.discoveryPaths],
    staging,
    ids,
    log,
    writer,
  });
  const handles = new HandleStore({ storage, clock, handleTtlMs: bundles.handleTtlMs, staging, stager });
  const runs = new BundleRunStore({ storage, clock });
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
    calls: context.calls,
    ids,
    hostAgents: new HostAgents({ discoveryPaths: config.agents.discoveryPaths, log }),
    spend: context.spend,
    limits: {
      maxModelCallsPerTurn: config.conversations.maxModelCallsPerTurn,
      frameCeilingBytes: bundles.streamFrameCeilingBytes,
      maxToolResultBytes: config.conversations.maxToolResultBytes,
      maxLifetimeTokens: config.conversations.maxLifetimeTokens,
    },
    log,
  });
  context.delegateTask.bind(runtime.delegate);
  // Runs that wait for a person are parked by the engine (DESIGN.md §13) and woken through it wherever the decision lands.
  context.approvals.onDecided('bundle', async (approval, ownerId) => {
    const decision = decisionOf(approval);
    if (decision !== undefined) await engine.decided(bundleRunKey({ ownerId, jobId: approval.jobId }), decision);
  });
  engine.register(
    bundleRunKind({
      executor: new BundleRunExecutor({ handles, conversations, runtime, approvals: context.approvals, ids, clock, frameCeilingBytes: bundles.streamFrameCeilingBytes, pricing: config.chatModel.pricing }),
      maxConcurrent: bundles.maxConcurrentDispatchedBundleRuns,
      runRecordTtlMs: bundles.runRecordTtlMs,
      log,
      approvals: context.approvals,
      events: context.events,
    }),
  );
  const runService = new BundleRunService({
    config: bundles,
    clock,
    ids,
    access: context.access,
    approvals: context.approvals,
    handles,
    runs,
    conversations,
    engine,
    streamSlots: new SharedSlots({
      slots: storage.slots,
      kind: 'bundle-stream',
      limitPerKey: bundles.maxConcurrentStreamsPerCaller,
      holder: engine.instanceId,
      ttlMs: engine.leaseTtlMs,
    }),
    log,
  });
  await stager.removeLeftovers().catch((err: unknown) => log.warn({ err }, 'removing leftover staging folders failed'));

  const sweeper = startSweeper({
    intervalMs: bundles.cleanupIntervalMs,
    name: 'the bundle sweep',
    log,
    sweep: async () => {
      await handles.sweep();
      await runs.sweep();
      await conversations.sweep();
      await stager.removeLeftovers();
    },
  });
  const streams = new OpenStreams();
  context.metrics.streamsOpen.child('bundle').track(() => streams.size);
  await registerBundleRoutes(app, {
    handles: new HandleService({ stager, handles, clock, ids }),
    runs: runService,
    enabled: bundles.enabled,
    maxArchiveBytes: bundles.maxArchiveBytes,
    streams,
    metrics: context.metrics,
    audit: context.audit,
    idempotency: context.idempotency,
  });
  return {
    turns: new BundleTurns({ enabled: bundles.enabled, handles, runtime, maxLifetimeTokens: config.conversations.maxLifetimeTokens }),
    agents: { enabled: bundles.enabled, handles, runs: runService },
    finishedRuns: new FinishedBundleRuns({ runs, enabled: bundles.enabled }),
    endStreams: (graceMs) => streams.finishAll(graceMs),
    close: async () => {
      sweeper.stop();
      await staging.close();
      await writer.close();
    },
  };
}
