// Each request's logger (Fastify's `childLoggerFactory`), made only when something logs through it.
// Fastify makes a child logger per request to bind its `reqId`; pino's child() builds and stringifies
// the bindings and copies the logger's state every time (3 % of a poll's CPU). Most requests log one
// line only, the request line (request-log.ts), which carries the id itself and is written through the
// parent: the same bytes as through the child. Anything else logged for the request (a refusal, a
// failure, Fastify's own warnings) makes the child on its first line, and every later line uses it.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

export class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    /** The logger the request's child descends from, which writes the request line. */
    readonly parent: FastifyBaseLogger,
    readonly bindings: Bindings,
    readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}

  /**
   * The parent, when it writes at this request's level (the route set no level of its own and the
   * child, if made, was not given one): a line that carries the request id itself may go through it.
   */
  get parentAtSameLevel(): FastifyBaseLogger | undefined {
    const child = this.#child;
    if (child === undefined) return this.options.level === undefined ? this.parent : undefined;
    return child.level === this.parent.level ? this.parent : undefined;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }

  /** The request's child logger, made on first use. */
  #made(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    const logger = this.#made();
    Reflect.apply(logger[level], logger, args);
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, its child made lazily. */
export function requestLogger(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
