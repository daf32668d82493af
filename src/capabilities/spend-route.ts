// GET /api/spend (DESIGN §16): the caller's spend limits, as their envelope resolves them, and what
// they spent this UTC day and month across every family and instance, with when each total resets.
import type { AccessPolicy } from '../platform/access/index.js';
import { NO_BUDGET } from '../platform/envelope/index.js';
import { principalOf, problemResponses, type App } from '../platform/http/index.js';
import type { SpendLedger } from '../platform/spend/index.js';
import { SpendResponseSchema } from './schemas.js';

export function registerSpendRoute(app: App, options: { readonly access: AccessPolicy; readonly spend: SpendLedger }): void {
  app.get(
    '/api/spend',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'getSpend',
        summary: 'The caller’s spend limits and what they spent this UTC day and month.',
        tags: ['Capabilities'],
        response: { 200: SpendResponseSchema, ...problemResponses(401, 429, 503) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const envelope = options.access.authorize(principal, 'capabilities.read');
      return options.spend.summary(principal.ownerId, envelope.budget ?? NO_BUDGET);
    },
  );
}
