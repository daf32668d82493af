// The logger factory: pino with secrets redacted from every logged value and message, and the
// Authorization header censored outright. Logs are the only place failure details go. The per-request
// line (RequestLogLine) holds only framework-made fields and is written without the redaction copy.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactText, redactValue } from '../redaction/index.js';
import { RequestLogLine } from './request-log-line.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level?: LevelWithSilent;
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.apiKey', 'apiKey'],
        censor: '[REDACTED]',
      },
      formatters: {
        log: (object) => (object instanceof RequestLogLine ? object : redactValue(object)),
      },
      hooks: {
        logMethod(args, method) {
          if (args[0] instanceof RequestLogLine) {
            method.apply(this, args);
            return;
          }
          const cleaned = args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}
