// Keys of AppConfig:Logging: how much the host writes to its (stderr, JSON) log.
import { enumCodec } from '../codecs/text-codecs.js';
import type { KeyEntry } from '../key-entry.js';
import { logLevels } from '../types.js';

export const loggingKeys: readonly KeyEntry[] = [
  {
    key: 'AppConfig:Logging:Level',
    codec: enumCodec(logLevels),
    default: 'info',
    meaning: 'Minimum level written to the log (fatal, error, warn, info, debug, trace, silent).',
  },
];
