// Keys of AppConfig:Http: transport hardening that is not specific to AI features.
import { concurrencyCapCodec } from '../codecs/range-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

export const httpKeys = defineKeys([
  {
    key: 'AppConfig:Http:RequestTimeout',
    codec: timeSpanCodec,
    default: '00:01:00',
    meaning: 'Whole-request receive timeout (uploads included; streams exempt).',
  },
  {
    key: 'AppConfig:Http:HeadersTimeout',
    codec: timeSpanCodec,
    default: '00:00:10',
    meaning: 'Time a client has to send the request line and headers (slow-header connections are closed).',
  },
  {
    key: 'AppConfig:Http:KeepAliveTimeout',
    codec: timeSpanCodec,
    default: '00:00:05',
    meaning: 'How long an idle keep-alive connection is kept open between requests.',
  },
  {
    key: 'AppConfig:Http:MaxConnections',
    codec: concurrencyCapCodec,
    default: 1024,
    meaning: 'Open connections host-wide; further connections are closed at once.',
  },
  {
    key: 'AppConfig:Http:MaxConnectionsPerAddress',
    codec: concurrencyCapCodec,
    default: 64,
    meaning: 'Open connections per remote address; further ones from that address are closed at once (raise it behind a reverse proxy).',
  },
]);
