export { IdempotencyStore, IDEMPOTENCY_COLLECTION, IN_FLIGHT_LEASE_MS, keyRecordId, type Admission, type StoredAnswer } from './idempotency-store.js';
export { IDEMPOTENCY_KEY_PATTERN, isIdempotencyKey } from './idempotency-key.js';
