// Keys of AppConfig:Logging: how much the host writes to its (stderr, JSON) log.
import { countCodec } from '../codecs/range-codecs.js';
import { enumCodec } from '../codecs/text-codecs.js';
import { DEFAULT_MAX_LOG_STRING_LENGTH } from '../../log/index.js';
import { defineKeys } from '../define-keys.js';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export const loggingKeys = defineKeys([
  {
    key: 'AppConfig:Logging:Level',
    codec: enumCodec(logLevels),
    default: 'info',
    meaning: 'Minimum level written to the log (fatal, error, warn, info, debug, trace, silent).',
  },
  {
    key: 'AppConfig:Logging:MaxStringLength',
    codec: countCodec,
    default: DEFAULT_MAX_LOG_STRING_LENGTH,
    meaning: 'Longest string a log line carries; longer ones are cut after redaction and marked with the length cut.',
  },
]);
