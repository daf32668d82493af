// Wires the A2A surface (DESIGN §20) from the AppContext and the bundle plane's agents: the agent
// adapter's collaborators, the routes, the count of open A2A streams. Mounted by the composition root
// only when AppConfig:AI:A2A:Enabled is set. Returns what shutdown must finish: its open streams and
// blocking sends (each then answers the task as it stands).
import type { AppContext, FeatureShutdown } from '../app-context.js';
import type { BundleAgents } from '../bundles/index.js';
import type { App } from '../platform/http/index.js';
import { OpenStreams } from '../platform/sse/index.js';
import { registerA2aRoutes } from './routes.js';

/** The largest A2A JSON-RPC request: the platform's default JSON body limit. */
const A2A_BODY_LIMIT = 1024 * 1024;
/** How long CancelTask waits for an executing run to stop. */
const CANCEL_WAIT_MS = 10_000;

export async function registerA2a(app: App, context: AppContext, agents: BundleAgents): Promise<FeatureShutdown> {
  const logger = context.logger.child({ feature: 'a2a' });
  const log = {
    warn: (details: object, message: string) => logger.warn(details, message),
    error: (details: object, message: string) => logger.error(details, message),
  };
  const streams = new OpenStreams();
  context.metrics.streamsOpen.child('a2a').track(() => streams.size);
  await registerA2aRoutes(app, {
    agents,
    agent: { runs: agents.runs, approvals: context.approvals, ids: context.ids, now: () => context.clock.now(), log, cancelWaitMs: CANCEL_WAIT_MS },
    auth: context.config.bundleExecution.auth,
    streams,
    metrics: context.metrics,
    log,
    bodyLimit: A2A_BODY_LIMIT,
  });
  return { endStreams: (graceMs) => streams.finishAll(graceMs) };
}
