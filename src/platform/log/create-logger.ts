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
        logMethod(args, method, level) {
          // A framework line with its constant message; anything more is scanned like every other call.
          if (args[0] instanceof FrameworkLogLine && args.length <= 2) {
            const message: unknown = args[1];
            if (typeof message === 'string' && writesPlainly(this)) writeFrameworkLine(this, args[0], message, level);
            else method.apply(this, args);
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
const { asJsonSym, lsCacheSym, chindingsSym, endSym, streamSym, timeSym, mixinSym, hooksSym, needsMetadataGsym } = pino.symbols;
// pino has it, its typings do not.
const { msgPrefixSym } = pino.symbols as unknown as { readonly msgPrefixSym: symbol };

/**
 * Nothing of pino's own write step would change a framework line on this logger: no mixin, no
 * message prefix, no stream-write hook, no destination that wants the last line's parts (multistream).
 */
function writesPlainly(logger: Logger): boolean {
  const self = logger as unknown as PinoInternals;
  return (
    self[mixinSym] == null &&
    self[msgPrefixSym] === undefined &&
    (self[hooksSym] as { streamWrite?: unknown }).streamWrite === undefined &&
    (self[streamSym] as PinoInternals)[needsMetadataGsym] !== true
  );
}

/**
 * A framework line written as pino's log method would write it on such a logger (its level already
 * enabled: pino calls the hook only then): its time, the line's JSON, the stream's write. Without
 * pino's argument arrays, message formatting and write bookkeeping, it costs about half as much.
 */
function writeFrameworkLine(logger: Logger, line: FrameworkLogLine, message: string, level: number): void {
  const self = logger as unknown as PinoInternals;
  const json = frameworkJson(self, line, message, level, (self[timeSym] as () => string)());
  (self[streamSym] as { write(text: string): void }).write(json);
}

/**
 * `{"level":…,"time":…<bindings>,<the line's fields>,"msg":…}` and pino's line end. For a line that
 * repeats its fields (a chain's tool calls write the same decision step after step), everything after
 * the time is kept from the last such line while its bindings, fields and message are the same
 * strings: the line is three pieces, not ten.
 */
function frameworkJson(self: PinoInternals, line: FrameworkLogLine, message: string, level: number, time: string): string {
  const fields = line.logFields();
  const levelPrefix = (self[lsCacheSym] as Record<number, string>)[level] as string;
  const chindings = self[chindingsSym] as string;
  const end = self[endSym] as string;
  if (!line.repeatsFields) return `${levelPrefix}${time}${suffixOf(chindings, fields, message, end)}`;
  if (fields !== lastFields || chindings !== lastChindings || message !== lastSuffixMessage || end !== lastEnd) {
    lastFields = fields;
    lastChindings = chindings;
    lastSuffixMessage = message;
    lastEnd = end;
    lastSuffix = suffixOf(chindings, fields, message, end);
  }
  return `${levelPrefix}${time}${lastSuffix}`;
}

/** What follows a framework line's time: the bindings, its fields, the message and pino's line end. */
function suffixOf(chindings: string, fields: string, message: string, end: string): string {
  return `${chindings}${fields === '' ? '' : ','}${fields},"msg":${messageJson(message)}${end}`;
}

let lastFields = '';
let lastChindings = '';
let lastSuffixMessage = '';
let lastEnd = '';
let lastSuffix = '';

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
    return frameworkJson(this as unknown as PinoInternals, object, message, level, time);
  } satisfies Serialize;
}
