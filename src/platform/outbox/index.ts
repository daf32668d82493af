// Events of owners' resources and the outbox they are written to with the change that caused them.
export { RESOURCE_EVENT_TYPES, type ResourceEvent, type ResourceEventData, type ResourceEventType } from './resource-event.js';
export { NO_EVENT_OUTBOX, type EventOutbox } from './event-outbox.js';
