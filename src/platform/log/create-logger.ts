// The logger factory: pino with secrets redacted from every logged value and message, the
// Authorization header censored outright, and every string cut (after redaction, marked) to
// maxStringLength, so no line carries megabytes of caller content. Logs are the only place failure
// details go.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactText, redactValue } from '../redaction/index.js';
import { serializeRequestField } from './serialize-request-field.js';
import { boundString, boundStrings } from './bound-strings.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level?: LevelWithSilent;
  readonly destination?: DestinationStream;
  /** Longest string a line carries (AppConfig:Logging:MaxStringLength). */
  readonly maxStringLength?: number;
}

export const DEFAULT_MAX_LOG_STRING_LENGTH = 8192;

export function createLogger(options: LoggerOptions = {}): Logger {
  const max = options.maxStringLength ?? DEFAULT_MAX_LOG_STRING_LENGTH;
  return pino(
    {
      level: options.level ?? 'info',
      // pino runs serializers after the log formatter: the formatter has already reduced a request to
      // its access-log fields, and this keeps Fastify's own `req` serializer from re-reading them.
      serializers: { req: (req: unknown) => req },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.apiKey', 'apiKey'],
        censor: '[REDACTED]',
      },
      formatters: {
        log: (object) => boundStrings(redactValue(serializeRequestField(object)), max),
      },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((arg: unknown) => (typeof arg === 'string' ? boundString(redactText(arg), max) : arg));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}
