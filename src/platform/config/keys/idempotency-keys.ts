// Keys of AppConfig:Idempotency (DESIGN.md §14): how long an Idempotency-Key and the answer it names are kept.
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

export const idempotencyKeys = defineKeys([
  {
    key: 'AppConfig:Idempotency:Ttl',
    codec: timeSpanCodec,
    default: '1.00:00:00',
    meaning: 'How long an Idempotency-Key and the answer it names are kept (in the storage, so across instances); a repeat within it gets that answer again.',
  },
]);
