// Request and response schemas of the webhook routes (DESIGN.md §14), for validation and the OpenAPI document.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PageQuerySchema, PathId } from '../platform/http/index.js';
import { RESOURCE_EVENT_TYPES } from '../platform/outbox/index.js';
import { MAX_WEBHOOK_URL_LENGTH } from './destination-policy.js';
import { deliveryStates } from './webhook-delivery.js';

const DateTime = Type.String({ format: 'date-time' });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' });

export const CreateWebhookSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_WEBHOOK_URL_LENGTH,
      description:
        'Where events are POSTed: an absolute http or https URL, a host in AppConfig:Webhooks:AllowedHosts, kept in its normalised form (as WHATWG URL serialises it). No user name or password, whitespace, control characters or backslashes (400); a host that resolves to a private, loopback or link-local address is refused (400) unless that address is listed by IP.',
    }),
    events: Type.Array(Type.Enum(RESOURCE_EVENT_TYPES), { minItems: 1, maxItems: RESOURCE_EVENT_TYPES.length, description: 'The event types delivered; an unknown name is a 400.' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { $id: 'CreateWebhook', additionalProperties: false },
);

const webhookProperties = {
  id: Type.String(),
  url: Type.String({ description: 'The destination, normalised.' }),
  events: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
};

export const WebhookSchema = Type.Object(webhookProperties, { $id: 'Webhook' });

export const CreatedWebhookSchema = Type.Object(
  {
    ...webhookProperties,
    secret: Type.Optional(
      Type.String({ description: 'whsec_…: the signing secret (Standard Webhooks), answered only here; absent from an idempotent replay (`Idempotent-Replayed: true`), as it is never kept with the key.' }),
    ),
  },
  { $id: 'CreatedWebhook' },
);

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema), nextCursor: NextCursor }, { $id: 'WebhookList' });

export const DeliverySchema = Type.Object(
  {
    deliveryId: Type.String(),
    eventId: Type.String({ description: 'The `webhook-id` header: the same on every attempt.' }),
    type: Type.String(),
    attempt: Type.Integer({ description: 'Attempts made so far.' }),
    status: Type.Enum(deliveryStates),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'The last attempt’s HTTP status; null when none answered (refused destination, unreachable, timed out).' }),
    durationMs: Type.Union([Type.Integer(), Type.Null()]),
    nextAttemptAt: Type.Union([DateTime, Type.Null()], { description: 'When a Pending delivery is attempted next.' }),
    createdAt: DateTime,
  },
  { $id: 'WebhookDelivery' },
);

export const DeliveryListSchema = Type.Object({ deliveries: Type.Array(DeliverySchema), nextCursor: NextCursor }, { $id: 'WebhookDeliveryList' });

export const WebhookParamsSchema = Type.Object({ id: PathId('The webhook’s id.') });

export const WebhookListQuerySchema = PageQuerySchema;

export type CreateWebhookBody = Static<typeof CreateWebhookSchema>;
