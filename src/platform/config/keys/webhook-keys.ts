// Keys of AppConfig:Webhooks (DESIGN.md §14): where webhooks may be delivered, how often a delivery is
// attempted, and how often each instance looks for deliveries that came due.
import { listCodec } from '../codecs/list-codec.js';
import { hostCodec } from '../codecs/host-codec.js';
import { integerCodec } from '../codecs/number-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:Webhooks:${name}` as const;

export const webhookKeys = defineKeys([
  {
    key: at('AllowedHosts'),
    codec: listCodec(hostCodec),
    default: [],
    meaning: 'Host names webhooks may be delivered to (checked at create and at every delivery); empty means none. Private, loopback and link-local addresses only when listed by IP.',
  },
  {
    key: at('MaxAttempts'),
    codec: integerCodec({ min: 1, max: 50 }),
    default: 7,
    meaning: 'Attempts per delivery in all; a non-2xx is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h (then every 10 h), then the delivery is Failed.',
  },
  {
    key: at('PollInterval'),
    codec: timeSpanCodec,
    default: '00:00:01',
    meaning: 'How often each instance looks for deliveries that came due (a new event or a retry).',
  },
]);
