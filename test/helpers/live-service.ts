// A real Portcullis listening on loopback with every family enabled (bundles, direct invocation, the MCP gateway,
// evals over the example datasets, the Scripted model), trusting the test identity provider. For
// tests that must speak real HTTP: the OpenAPI property test, the typed client, the CLI, AG-UI.
import { join } from 'node:path';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import type { Logger } from '../../src/platform/log/index.js';
import { buildTestApp, merge, type TestApp } from './test-app.js';
import { idpSettings, startTestIdp } from './idp.js';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
export const ROLES = ['Harness.Tools.Invoke', 'Harness.Evals.Execute'];

export interface LiveService {
  readonly idp: DevIdp;
  readonly app: TestApp;
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  /** A token for `sub` (default roles: tool invocation and evals). */
  token(sub: string, roles?: string[]): Promise<string>;
  close(): Promise<void>;
}

/** Generous rate limits: these tests send many requests from one caller. */
const GENEROUS = Object.fromEntries(
  ['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete', 'tools-read', 'tools-invoke', 'workflows-write', 'workflows-read', 'evals-write', 'evals-read'].map(
    (policy) => [policy, { PermitsPerMinute: 1_000_000 }],
  ),
);

export interface LiveServiceOptions {
  /** Where the service logs (default: nowhere). */
  readonly logger?: Logger;
  /** Settings outside AppConfig:AI, merged last (`{ AppConfig: { Webhooks: … } }`). */
  readonly settings?: Record<string, unknown>;
}

export async function startLiveService(ai: Record<string, unknown> = {}, options: LiveServiceOptions = {}): Promise<LiveService> {
  const idp = await startTestIdp();
  const settings = idpSettings(
    idp,
    merge(
      {
        BundleExecution: {
          Enabled: true,
          Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'json', 'text', 'knowledge', 'memory'], AutonomyCeiling: 'Autonomous' } },
        },
        DirectToolInvocation: { Enabled: true },
        McpGateway: { Enabled: true },
        Evaluation: { Enabled: true, DatasetRoots: [join(REPO_ROOT, 'examples', 'evals')] },
        ChatModel: { Provider: 'Scripted' },
        RateLimits: GENEROUS,
      },
      ai,
    ),
  );
  const app = await buildTestApp({ environment: 'Production', settings: merge(settings, options.settings ?? {}), ...(options.logger === undefined ? {} : { deps: { logger: options.logger } }) });
  const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    idp,
    app,
    url,
    token: (sub, roles = ROLES) => idp.mintToken({ sub, roles }),
    close: async () => {
      await app.close();
      await idp.close();
    },
  };
}
