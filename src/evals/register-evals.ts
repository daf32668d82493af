// Wires the eval family from the shared AppContext: the store on the storage port, the service (runner
// on the agent runtime and the tool plane) with its run kind on the shared engine, the sweeper, routes.
import type { AppContext } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { startSweeper } from '../platform/store/index.js';
import { registerEvalRoutes } from './routes.js';
import { EvalService } from './service.js';
import { EvalStore } from './store/eval-store.js';

export async function registerEvals(app: App, context: AppContext): Promise<void> {
  const { config, logger, storage, engine } = context;
  const log = {
    warn: (details: object, message: string) => logger.warn(details, message),
  };
  const service = new EvalService({
    config: config.evaluation,
    envelopes: config.bundleExecution.envelopes,
    store: new EvalStore({
      storage,
      clock: context.clock,
      reclaimAfterMs: config.bundleExecution.runRecordTtlMs,
      reportsRoot: config.evaluation.reportsRoot,
      log,
    }),
    engine,
    durable: storage.durable,
    ids: context.ids,
    clock: context.clock,
    host: {
      model: context.chatModel,
      plane: { registry: context.registry, validator: context.validator, governor: context.governor },
      agentDiscoveryPaths: config.agents.discoveryPaths,
      limits: {
        maxModelCallsPerTurn: config.conversations.maxModelCallsPerTurn,
        lifetimeTokenBudget: config.conversations.maxLifetimeTokens,
        frameCeilingBytes: config.bundleExecution.streamFrameCeilingBytes,
        maxToolResultBytes: config.conversations.maxToolResultBytes,
      },
      pricing: config.chatModel.pricing,
      log,
    },
    onReport: (verdict, counts) => {
      context.metrics.evalVerdicts.child(verdict).inc();
      for (const outcome of ['passed', 'failed', 'warned', 'errored'] as const) {
        if (counts[outcome] > 0) context.metrics.evalCases.child(outcome).inc(counts[outcome]);
      }
    },
  });
  engine.register(service.kind());
  const sweeper = startSweeper({
    intervalMs: config.bundleExecution.cleanupIntervalMs,
    sweep: () => service.sweep(),
    onError: (err) => logger.warn({ err }, 'The eval store sweep failed.'),
  });
  context.onClose(async () => {
    sweeper.stop();
    await context.stopRuns();
  });
  registerEvalRoutes(app, service, config.evaluation, { audit: context.audit, envelopes: config.bundleExecution.envelopes });
}
