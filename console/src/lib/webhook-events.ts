// The event names a webhook may subscribe to (DESIGN §14), in the service's order. Not a list kept
// here: the build puts in the service's own (its OpenAPI document's CreateWebhook schema; vite.config.ts).
declare const __WEBHOOK_EVENT_TYPES__: readonly string[];

export const WEBHOOK_EVENT_TYPES: readonly string[] = __WEBHOOK_EVENT_TYPES__;
