// Wires the workflow family from the AppContext: stores and the run service on the injected clock
// and ids, real timers, the six step runners on the one governed tool call, the chat model and the
// condition evaluator's threads, the stream ceilings, the sweeper and the routes. Returns what shutdown
// must finish (open progress streams: sent what is committed, then closed) and close (the sweeper, the
// condition threads), and its run start for schedules.
import { isProblemError } from '../platform/problems/index.js';
import type { AppContext, FeatureShutdown } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { SharedSlots } from '../platform/rate-limit/index.js';
import { OpenStreams } from '../platform/sse/index.js';
import { startSweeper } from '../platform/store/index.js';
import { realTimers } from './engine/timers.js';
import { ConditionEvaluator } from './steps/condition-evaluator.js';
import { registerWorkflowRoutes } from './routes.js';
import { createWorkflowService, type WorkflowService } from './service.js';

/** DESIGN §2: definition bodies up to 2 MiB. */
export const MAX_DEFINITION_BYTES = 2 * 1024 * 1024;

/** What shutdown needs, and the run start other surfaces use (a schedule's fire, through app.ts). */
export interface WorkflowFeature extends FeatureShutdown {
  readonly startRun: WorkflowService['runs']['start'];
  /** Whether the caller has that workflow (a schedule's target). */
  workflowExists(owner: { readonly ownerId: string }, workflowId: string): Promise<boolean>;
}

export async function registerWorkflows(app: App, context: AppContext): Promise<WorkflowFeature> {
  const { config } = context;
  const workflows = config.workflows;
  const logger = context.logger.child({ feature: 'workflows' });
  const conditions = new ConditionEvaluator();
  const service = createWorkflowService({
    config: workflows,
    storage: context.storage,
    engine: context.engine,
    access: context.access,
    approvals: context.approvals,
    events: context.events,
    clock: context.clock,
    ids: context.ids,
    timers: realTimers,
    logger,
    hasIndex: (name) => context.knowledge.has(name),
    steps: {
      chatModel: context.chatModel,
      spend: context.spend,
      chatDefaults: { maxOutputTokens: config.chatModel.maxOutputTokens, temperature: config.chatModel.temperature },
      calls: context.calls,
      registry: context.registry,
      validator: context.validator,
      knowledge: context.knowledge,
      limits: workflows,
      conditions,
      tracing: context.tracing,
    },
  });
  const streams = new OpenStreams();
  registerWorkflowRoutes(app, {
    service,
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
    streams,
    audit: context.audit,
    log: { warn: (o: object, m: string) => logger.warn(o, m), info: (o: object, m: string) => logger.info(o, m) },
  });
  context.metrics.streamsOpen.child('workflow').track(() => streams.size);

  const sweeper = startSweeper({
    intervalMs: config.bundleExecution.cleanupIntervalMs,
    name: 'the workflow run sweep',
    log: { warn: (o: object, m: string) => logger.warn(o, m), info: (o: object, m: string) => logger.info(o, m) },
    sweep: () => service.runs.sweep(),
  });
  return {
    startRun: (starter, workflowId, input, requestId) => service.runs.start(starter, workflowId, input, requestId),
    workflowExists: async (owner, workflowId) => {
      try {
        await service.definitions.get(owner, workflowId);
        return true;
      } catch (error) {
        if (isProblemError(error) && error.code === 'not-found') return false;
        throw error;
      }
    },
    endStreams: (graceMs) => streams.finishAll(graceMs),
    close: async () => {
      sweeper.stop();
      await conditions.close();
    },
  };
}
