// Keys of AppConfig:Http: transport hardening that is not specific to AI features.
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import type { KeyEntry } from '../key-entry.js';

export const httpKeys: readonly KeyEntry[] = [
  {
    key: 'AppConfig:Http:RequestTimeout',
    codec: timeSpanCodec,
    default: '00:01:00',
    meaning: 'Whole-request receive timeout (uploads included; streams exempt).',
  },
];
