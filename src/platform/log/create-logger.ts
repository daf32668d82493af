// The logger factory: pino with secrets redacted from every logged value and message, and the
// Authorization header censored outright. Logs are the only place failure details go.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactText, redactValue } from '../redaction/index.js';
import { serializeRequestField } from './serialize-request-field.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level?: LevelWithSilent;
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
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
        log: (object) => redactValue(serializeRequestField(object)),
      },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}
