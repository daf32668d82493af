// HTTP edge of webhooks (DESIGN.md §14): subscriptions, their deliveries log and the test event. Rate
// policies: webhooks-write for create, delete and test; webhooks-read for reads.
import { listValidatorCompiler, pageOf, principalOf, problemResponses, type App, IdempotencyHeadersSchema } from '../platform/http/index.js';
import { CreatedWebhookSchema, CreateWebhookSchema, DeliveryListSchema, WebhookListQuerySchema, WebhookListSchema, WebhookParamsSchema, WebhookSchema } from './schemas.js';
import { webhookUrl, type WebhookService } from './webhook-service.js';

const TAGS = ['Webhooks'];

export function registerWebhookRoutes(app: App, service: WebhookService): void {
  app.post(
    '/api/webhooks',
    {
      // The secret is never kept with an Idempotency-Key: a replay answers the subscription without it.
      config: { rateLimit: 'webhooks-write', idempotent: 'body', idempotentKeepsWithout: ['secret'] },
      schema: {
        operationId: 'createWebhook',
        summary: 'Subscribe a URL to events of my resources; the signing secret is answered only here (at most 20 per caller: 409 beyond).',
        description:
          'The answer carries the signing secret once. An idempotent replay (same Idempotency-Key and body; `Idempotent-Replayed: true`) answers the same subscription without `secret`: the secret is never kept with the key. A client that lost the first answer deletes the webhook and creates another.',
        tags: TAGS,
        headers: IdempotencyHeadersSchema,
        body: CreateWebhookSchema,
        response: { 201: CreatedWebhookSchema, ...problemResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const created = await service.create(principalOf(request), request.body);
      return reply.code(201).header('location', webhookUrl(created.id)).send(created);
    },
  );

  app.get(
    '/api/webhooks',
    {
      config: { rateLimit: 'webhooks-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listWebhooks',
        summary: 'My webhooks, newest first (never their secrets).',
        tags: TAGS,
        querystring: WebhookListQuerySchema,
        response: { 200: WebhookListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => service.list(principalOf(request), pageOf(request.query)),
  );

  app.get(
    '/api/webhooks/:id',
    {
      config: { rateLimit: 'webhooks-read' },
      schema: {
        operationId: 'getWebhook',
        summary: 'One of my webhooks (never its secret).',
        tags: TAGS,
        params: WebhookParamsSchema,
        response: { 200: WebhookSchema, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request) => service.get(principalOf(request), request.params.id),
  );

  app.delete(
    '/api/webhooks/:id',
    {
      config: { rateLimit: 'webhooks-write' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete one of my webhooks; deliveries not yet made are dropped.',
        tags: TAGS,
        params: WebhookParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      config: { rateLimit: 'webhooks-read' },
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'The webhook’s deliveries, newest first: attempts made, the last answer, and when the next attempt is due.',
        tags: TAGS,
        params: WebhookParamsSchema,
        querystring: WebhookListQuerySchema,
        response: { 200: DeliveryListSchema, ...problemResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => service.deliveries(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      config: { rateLimit: 'webhooks-write' },
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a webhook.test event to this webhook, whatever its events (delivered like any other: see its deliveries).',
        tags: TAGS,
        params: WebhookParamsSchema,
        response: { 202: { type: 'null', description: 'Queued for delivery.' }, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await service.test(principalOf(request), request.params.id);
      return reply.code(202).send(null);
    },
  );
}
