// Wires schedules from the AppContext: the store on the storage port, the service and routes, and —
// with schedules on — the ticker firing due schedules through the targets app.ts hands in, and the
// sweep of expired fires. Returns what shutdown must do: stop firing before the run engine stops
// (no run is started while runs drain), and stop the sweep.
import type { AppContext, FeatureShutdown } from '../app-context.js';
import type { App } from '../platform/http/index.js';
import { startSweeper } from '../platform/store/index.js';
import { registerScheduleRoutes } from './routes.js';
import { ScheduleFirer } from './schedule-firer.js';
import { ScheduleService } from './schedule-service.js';
import { ScheduleStore } from './schedule-store.js';
import type { ScheduleTargets } from './schedule-targets.js';
import { ScheduleTicker } from './schedule-ticker.js';
import { realTickWaiter, type TickWaiter } from './tick-waiter.js';

export interface ScheduleWiring {
  readonly targets: ScheduleTargets;
  /** How the ticker waits between passes (tests: ManualTicks). */
  readonly waiter?: TickWaiter;
}

/** What shutdown needs, and the ticker's start (once the run engine started). */
export interface ScheduleFeature extends FeatureShutdown {
  readonly start: () => void;
}

export function registerSchedules(app: App, context: AppContext, wiring: ScheduleWiring): ScheduleFeature {
  const { config } = context;
  const logger = context.logger.child({ feature: 'schedules' });
  const log = { warn: (o: object, m: string) => logger.warn(o, m), info: (o: object, m: string) => logger.info(o, m) };
  const store = new ScheduleStore({ storage: context.storage });
  registerScheduleRoutes(app, new ScheduleService({ config: config.schedules, store, clock: context.clock, ids: context.ids, targets: wiring.targets }));
  if (!config.schedules.enabled) return { start: () => undefined };

  const firer = new ScheduleFirer({ store, targets: wiring.targets, clock: context.clock, audit: context.audit, events: context.events, fireRetentionMs: config.schedules.fireRetentionMs, log });
  const ticker = new ScheduleTicker({ store, firer, waiter: wiring.waiter ?? realTickWaiter, log });
  const sweeper = startSweeper({ intervalMs: config.bundleExecution.cleanupIntervalMs, name: 'the schedule fire sweep', log, sweep: () => store.sweep() });
  return {
    start: () => ticker.start(),
    stopStarting: () => ticker.stop(),
    close: async () => {
      await ticker.stop();
      sweeper.stop();
    },
  };
}
