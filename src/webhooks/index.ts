// Webhooks (DESIGN.md §14): the EventOutbox the families write events to, the routes, and the
// dispatcher that delivers on every instance. app.ts builds them before the families (which write
// events) and closes them in its one ordered shutdown.
import type { FeatureShutdown } from '../app-context.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { WebhooksConfig } from '../platform/config/types.js';
import type { OutageLogSink } from '../platform/log/index.js';
import type { ServiceMetrics } from '../platform/metrics/index.js';
import type { EventOutbox } from '../platform/outbox/index.js';
import type { Storage } from '../platform/storage/index.js';
import { startSweeper } from '../platform/store/index.js';
import type { App } from '../platform/http/index.js';
import type { HostLookup } from '../tools/builtin/http-fetch/index.js';
import { DestinationPolicy } from './destination-policy.js';
import { registerWebhookRoutes } from './routes.js';
import { sendWebhook } from './send-webhook.js';
import { WebhookDispatcher, type DeliveryOutcome } from './webhook-dispatcher.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookService } from './webhook-service.js';
import { WebhookStore } from './webhook-store.js';

export { WebhookDispatcher, DELIVERY_RETENTION_MS, type DeliveryOutcome } from './webhook-dispatcher.js';
export { signWebhook, newWebhookSecret } from './webhook-secret.js';

/** Attempts in flight at once on one instance. */
const DISPATCH_CONCURRENCY = 32;

export interface WebhooksOptions {
  readonly config: WebhooksConfig;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly metrics: ServiceMetrics;
  readonly instanceId: string;
  readonly leaseTtlMs: number;
  readonly cleanupIntervalMs: number;
  readonly log: OutageLogSink;
  /** Name resolution for destinations (tests play a hostile resolver). */
  readonly lookup?: HostLookup;
}

export interface Webhooks {
  /** Where the families write their events. */
  readonly outbox: EventOutbox;
  /** Registers the routes and starts delivering; returns what shutdown closes. */
  register(app: App): FeatureShutdown;
}

export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { config, storage, clock, ids, metrics } = options;
  const store = new WebhookStore(storage);
  const policy = new DestinationPolicy(config.allowedHosts, options.lookup);
  const counted = new Map<DeliveryOutcome, { inc(): void }>();
  const dispatcher = new WebhookDispatcher({
    storage,
    store,
    clock,
    holder: `webhooks:${options.instanceId}`,
    leaseTtlMs: options.leaseTtlMs,
    pollIntervalMs: config.pollIntervalMs,
    maxAttempts: config.maxAttempts,
    concurrency: DISPATCH_CONCURRENCY,
    send: (attempt, signal) => sendWebhook(attempt, policy, signal),
    log: options.log,
    ...(metrics.enabled
      ? {
          onAttempt: (outcome: DeliveryOutcome) => {
            let child = counted.get(outcome);
            if (child === undefined) counted.set(outcome, (child = metrics.webhookDeliveries.child(outcome)));
            child.inc();
          },
        }
      : {}),
  });
  return {
    outbox: new WebhookOutbox(store, ids),
    register(app) {
      registerWebhookRoutes(app, new WebhookService({ store, storage, policy, clock, ids }));
      const sweeper = startSweeper({ intervalMs: options.cleanupIntervalMs, name: 'the webhook deliveries sweep', log: options.log, sweep: () => store.sweep() });
      dispatcher.start();
      return {
        close: async () => {
          sweeper.stop();
          await dispatcher.stop();
        },
      };
    },
  };
}
