// The logger factory: pino with secrets redacted from every logged value and message, and the
// Authorization header censored outright. Logs are the only place failure details go. A
// FrameworkLogLine (the per-request line, the governor's decision) holds only framework-made fields
// and is written without the redaction copy, so it costs what a plain pino line costs.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactText, redactValue } from '../redaction/index.js';
import { censorPaths } from './censor-paths.js';
import { FrameworkLogLine } from './framework-log-line.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level?: LevelWithSilent;
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      formatters: {
        log: (object) => (object instanceof FrameworkLogLine ? object : censorPaths(redactValue(object))),
      },
      hooks: {
        logMethod(args, method) {
          // A framework line with its constant message; anything more is scanned like every other call.
          if (args[0] instanceof FrameworkLogLine && args.length <= 2) {
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
