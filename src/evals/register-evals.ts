// Wires the eval family from the shared AppContext: the service (stores, dispatcher, runner on the
// agent runtime and the tool plane), its reclaim sweeper, shutdown, and the routes.
import type { AppContext } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { startSweeper } from '../platform/store/index.js';
import { registerEvalRoutes } from './routes.js';
import { EvalService } from './service.js';

export async function registerEvals(app: App, context: AppContext): Promise<void> {
  const { config, logger } = context;
  const log = {
    warn: (details: object, message: string) => logger.warn(details, message),
  };
  const service = new EvalService({
    config: config.evaluation,
    envelopes: config.bundleExecution.envelopes,
    reclaimAfterMs: config.bundleExecution.runRecordTtlMs,
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
  });
  const sweeper = startSweeper({
    intervalMs: config.bundleExecution.cleanupIntervalMs,
    sweep: () => service.sweep(),
    onError: (err) => logger.warn({ err }, 'The eval store sweep failed.'),
  });
  context.onClose(async () => {
    sweeper.stop();
    await service.close();
  });
  registerEvalRoutes(app, service);
}
