// Wires the workflow family from the AppContext: stores and the run service on the injected clock
// and ids, real timers, the six step runners on the shared tool plane and chat model, the stream
// ceilings, the sweeper and the routes. Shutdown stops every live run and ends open streams.
import type { AppContext } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { SharedSlots } from '../platform/rate-limit/index.js';
import type { SseStream } from '../platform/sse/index.js';
import { startSweeper } from '../platform/store/index.js';
import { realTimers } from './engine/timers.js';
import { registerWorkflowRoutes } from './routes.js';
import { createWorkflowService, type WorkflowService } from './service.js';
import { withinGrace } from './within-grace.js';

/** DESIGN §2: definition bodies up to 2 MiB. */
export const MAX_DEFINITION_BYTES = 2 * 1024 * 1024;
const SHUTDOWN_GRACE_MS = 5_000;

export async function registerWorkflows(app: App, context: AppContext): Promise<WorkflowService> {
  const { config } = context;
  const workflows = config.workflows;
  const logger = context.logger.child({ feature: 'workflows' });
  const service = createWorkflowService({
    config: workflows,
    storage: context.storage,
    engine: context.engine,
    clock: context.clock,
    ids: context.ids,
    timers: realTimers,
    logger,
    hasIndex: (name) => context.knowledge.has(name),
    steps: {
      chatModel: context.chatModel,
      chatDefaults: { maxOutputTokens: config.chatModel.maxOutputTokens, temperature: config.chatModel.temperature },
      registry: context.registry,
      governor: context.governor,
      validator: context.validator,
      knowledge: context.knowledge,
      limits: workflows,
      tracing: context.tracing,
    },
  });
  const openStreams = new Map<SseStream, Promise<void>>();
  registerWorkflowRoutes(app, {
    service,
    envelopes: config.bundleExecution.envelopes,
    streamSlots: new SharedSlots({
      slots: context.storage.slots,
      kind: 'workflow-stream',
      limitPerKey: workflows.maxProgressStreamsPerOwner,
      globalLimit: workflows.maxConcurrentProgressStreams,
      holder: context.engine.instanceId,
      ttlMs: context.engine.leaseTtlMs,
    }),
    watcherBufferFrames: workflows.watcherBufferFrames,
    maxDefinitionBytes: MAX_DEFINITION_BYTES,
    openStreams,
    audit: context.audit,
  });
  context.metrics.streamsOpen.child('workflow').track(() => openStreams.size);

  const sweeper = startSweeper({
    intervalMs: config.bundleExecution.cleanupIntervalMs,
    sweep: () => service.runs.sweep(),
    onError: (err) => logger.warn({ err }, 'workflow run sweep failed'),
  });
  // Before the server drops connections: stop live runs, let their streams deliver FINISHED, end the rest.
  app.addHook('preClose', async () => {
    sweeper.stop();
    await context.stopRuns();
    await withinGrace(Promise.all(openStreams.values()), SHUTDOWN_GRACE_MS);
    for (const stream of openStreams.keys()) stream.close();
  });
  context.onClose(async () => sweeper.stop());
  return service;
}

