// GET /api/capabilities: the caller's resolved envelope, per host tool whether it is granted and which
// rule decided, and which families the host serves. It explains; it never widens.
import { principalOf, problemResponses, type App } from '../platform/http/index.js';
import type { AccessPolicy } from '../platform/access/index.js';
import type { HostTool } from '../platform/envelope/index.js';
import { explainCapabilities } from './service.js';
import { CapabilitiesResponseSchema, type HostFamilies } from './schemas.js';

export function registerCapabilitiesRoutes(
  app: App,
  options: {
    access: AccessPolicy;
    hostTools: (signal: AbortSignal) => Promise<readonly HostTool[]>;
    approvalsEnabled: boolean;
    families: HostFamilies;
    policy: () => { readonly mode: 'Enforce' | 'Shadow'; readonly version: string } | null;
  },
): void {
  app.get(
    '/api/capabilities',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'getCapabilities',
        summary: 'Explain the caller’s capability envelope: what is granted and which rule decided it.',
        tags: ['Capabilities'],
        response: { 200: CapabilitiesResponseSchema, ...problemResponses(401, 429) },
      },
    },
    async (request) => {
      const signal = AbortSignal.timeout(10_000);
      const { approvalsEnabled, families, policy } = options;
      return explainCapabilities(options.access, principalOf(request), { hostTools: await options.hostTools(signal), approvalsEnabled, families, policy });
    },
  );
}
