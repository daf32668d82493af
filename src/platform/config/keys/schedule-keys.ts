// Keys of AppConfig:Schedules (DESIGN.md §14): cron schedules that start workflow and eval runs as
// their owner. On by default; the shortest interval a schedule may fire at, and how long fires are kept.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { integerCodec } from '../codecs/number-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:Schedules:${name}` as const;

export const scheduleKeys = defineKeys([
  {
    key: at('Enabled'),
    codec: booleanCodec,
    default: true,
    meaning: 'Serve /api/schedules and fire due schedules on this instance (false: the routes answer 403 and nothing fires here); set it alike on every instance.',
  },
  {
    key: at('MinIntervalSeconds'),
    codec: integerCodec({ min: 1, max: 86_400 }),
    default: 60,
    meaning: 'The shortest time between two fires of one schedule (400 beyond); under 60, six-field crons (seconds first) are accepted.',
  },
  {
    key: at('FireRetention'),
    codec: timeSpanCodec,
    default: '7.00:00:00',
    meaning: 'How long a schedule’s fires stay listed in GET /api/schedules/{id}/fires.',
  },
]);
