// The logger factory: pino with secrets redacted from every logged value and message, the
// Authorization header and API keys censored outright, and every string cut (after redaction,
// marked) to maxStringLength, so no line carries megabytes of caller content. Logs are the only place
// failure details go. A FrameworkLogLine (the per-request line, a governed tool call's decision) holds only
// framework-made, bounded fields and is written without the redaction copy, so it costs what a plain
// pino line costs. Such a line writes its own fields as JSON (`logFields`): the logger swaps pino's
// serialiser for one that, for a framework line, joins pino's own level, time and bindings, those
// fields and the message exactly as pino would (pino's field loop cost a tool call's line 4–5 µs on
// this 2-core VM, this about 1); every other object goes through pino's serialiser unchanged.
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactText, redactValue } from '../redaction/index.js';
import { boundString, boundStrings } from './bound-strings.js';
import { censorPaths } from './censor-paths.js';
import { FrameworkLogLine, jsonString } from './framework-log-line.js';
import { serializeRequestField } from './serialize-request-field.js';

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
  const logger = pino(
    {
      level: options.level ?? 'info',
      // pino runs serializers after the log formatter: the formatter has already reduced a request to
      // its access-log fields, and this keeps Fastify's own `req` serializer from re-reading them.
      serializers: { req: (req: unknown) => req },
      formatters: {
        log: (object) => (object instanceof FrameworkLogLine ? object : boundStrings(censorPaths(redactValue(serializeRequestField(object))), max)),
      },
      hooks: {
        logMethod(args, method) {
          // A framework line with its constant message; anything more is scanned like every other call.
          if (args[0] instanceof FrameworkLogLine && args.length <= 2) {
            method.apply(this, args);
            return;
          }
          const cleaned = args.map((arg: unknown) => (typeof arg === 'string' ? boundString(redactText(arg), max) : arg));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
  writeFrameworkLinesDirectly(logger);
  return logger;
}

/** A framework line's message is a constant of its call site: the last one's JSON is kept. */
let lastMessage = '';
let lastMessageJson = '""';
function messageJson(message: string): string {
  if (message !== lastMessage) {
    lastMessage = message;
    lastMessageJson = jsonString(message);
  }
  return lastMessageJson;
}

type Serialize = (this: Logger, object: unknown, message: unknown, level: number, time: string) => string;
type PinoInternals = Record<symbol, unknown>;
const { asJsonSym, lsCacheSym, chindingsSym, endSym } = pino.symbols;

/**
 * Replaces the logger's serialiser (child loggers inherit it): a framework line logged with a string
 * message is `{"level":…,"time":…<bindings>,<its fields>,"msg":…}` plus pino's line end, the bytes
 * pino's own loop writes for it (this logger has no nested key, message key or mixin of its own).
 */
function writeFrameworkLinesDirectly(logger: Logger): void {
  const internals = logger as unknown as PinoInternals;
  const serialize = internals[asJsonSym] as Serialize;
  internals[asJsonSym] = function (this: Logger, object: unknown, message: unknown, level: number, time: string): string {
    if (!(object instanceof FrameworkLogLine) || typeof message !== 'string') return serialize.call(this, object, message, level, time);
    const self = this as unknown as PinoInternals;
    const fields = object.logFields();
    const levelPrefix = (self[lsCacheSym] as Record<number, string>)[level] as string;
    return `${levelPrefix}${time}${self[chindingsSym] as string}${fields === '' ? '' : ','}${fields},"msg":${messageJson(message)}${self[endSym] as string}`;
  } satisfies Serialize;
}
