// Wires the eval family from the shared AppContext: the store on the storage port, the eval run kind
// on the shared engine (the runner on the chat model and the one governed tool call), the service, the
// callers' own datasets (DESIGN.md §19), the sweeper, routes. Returns what shutdown must close (the
// sweeper) and its run start for schedules.
import type { AppContext, FeatureShutdown } from '../app-context.js';
import type { BundleTurns, FinishedBundleRuns } from '../bundles/index.js';
import type { App } from '../platform/http/index.js';
import { startSweeper } from '../platform/store/index.js';
import { registerEvalRoutes } from './routes.js';
import { evalRunKind } from './runs/eval-run-kind.js';
import { EvalService } from './service.js';
import { EvalStore } from './store/eval-store.js';
import { OwnDatasetStore } from './mine/dataset-store.js';
import { registerOwnDatasetRoutes } from './mine/routes.js';
import { OwnDatasetService } from './mine/service.js';

/** What shutdown needs, and the run start other surfaces use (a schedule's fire, through app.ts). */
export interface EvalFeature extends FeatureShutdown {
  readonly startRun: EvalService['start'];
  /** Whether a run of the caller could name every one of these datasets (a schedule's target). */
  readonly datasetsExist: EvalService['datasetsExist'];
}

/** What other families lend the evals: an uploaded bundle's turns (runs with `subject: { handle }`) and the callers' finished bundle runs (a run becomes a case). */
export interface EvalNeighbours {
  readonly bundles: BundleTurns;
  readonly bundleRuns: FinishedBundleRuns;
}

export async function registerEvals(app: App, context: AppContext, neighbours: EvalNeighbours): Promise<EvalFeature> {
  const { config, logger, storage, engine } = context;
  const log = {
    warn: (details: object, message: string) => logger.warn(details, message),
    info: (details: object, message: string) => logger.info(details, message),
  };
  const store = new EvalStore({
    storage,
    clock: context.clock,
    reclaimAfterMs: config.bundleExecution.runRecordTtlMs,
    reportsRoot: config.evaluation.reportsRoot,
    log,
  });
  engine.register(
    evalRunKind({
      store,
      clock: context.clock,
      ids: context.ids,
      events: context.events,
      maxConcurrent: config.evaluation.maxConcurrentRuns,
      host: {
        model: context.chatModel,
        spend: context.spend,
        calls: context.calls,
        agentDiscoveryPaths: config.agents.discoveryPaths,
        limits: {
          maxModelCallsPerTurn: config.conversations.maxModelCallsPerTurn,
          lifetimeTokenBudget: config.conversations.maxLifetimeTokens,
          frameCeilingBytes: config.bundleExecution.streamFrameCeilingBytes,
          maxToolResultBytes: config.conversations.maxToolResultBytes,
        },
        pricing: config.chatModel.pricing,
        bundles: neighbours.bundles,
        log,
      },
      onReport: (verdict, counts) => {
        context.metrics.evalVerdicts.child(verdict).inc();
        for (const outcome of ['passed', 'failed', 'warned', 'errored'] as const) {
          if (counts[outcome] > 0) context.metrics.evalCases.child(outcome).inc(counts[outcome]);
        }
      },
    }),
  );
  const ownDatasets = new OwnDatasetService({
    config: config.evaluation,
    access: context.access,
    store: new OwnDatasetStore({ storage, ids: context.ids }),
    runs: neighbours.bundleRuns,
  });
  const service = new EvalService({ config: config.evaluation, access: context.access, store, engine, ids: context.ids, clock: context.clock, log, ownDatasets, bundles: neighbours.bundles });
  const sweep = async () => {
    await service.sweep();
    await ownDatasets.sweep();
  };
  const sweeper = startSweeper({ intervalMs: config.bundleExecution.cleanupIntervalMs, name: 'the eval store sweep', log, sweep });
  registerEvalRoutes(app, service, config.evaluation);
  registerOwnDatasetRoutes(app, ownDatasets, config.evaluation);
  return {
    startRun: (principal, body, requestId) => service.start(principal, body, requestId),
    datasetsExist: (principal, names) => service.datasetsExist(principal, names),
    close: async () => sweeper.stop(),
  };
}
