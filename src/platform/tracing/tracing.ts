// What the service asks of tracing, small enough to be a constant when tracing is off: call sites
// check `enabled` (one property read) and do nothing else, so the default costs nothing per request.
// When on (start-tracing.ts), spans go to the OpenTelemetry SDK with an explicit context manager and
// propagator of their own: nothing is registered globally, so two apps in one process stay apart.
import { ROOT_CONTEXT, SpanStatusCode, trace, INVALID_SPAN_CONTEXT, type Attributes, type Context, type Span, type SpanKind } from '@opentelemetry/api';

export type { Attributes, Context, Span };
export { SpanKind, SpanStatusCode } from '@opentelemetry/api';

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
}

export type HeaderCarrier = Readonly<Record<string, string | string[] | undefined>>;

export interface Tracing {
  readonly enabled: boolean;
  /** Starts a span under `parent`, by default under the active context's span. */
  startSpan(name: string, options?: SpanOptions, parent?: Context): Span;
  /** Runs `fn` with `span` active, so spans started inside it (and outgoing requests) are its children. */
  withSpan<T>(span: Span, fn: () => T): T;
  /** Runs `fn` in `context` (e.g. a request's, re-entered after its body was read). */
  withContext<T>(context: Context, fn: () => T): T;
  /** The active context with `span` as its span. */
  contextWith(span: Span): Context;
  /** The context incoming headers carry (W3C traceparent, tracestate and baggage). */
  extract(headers: HeaderCarrier): Context;
  /** A fetch that sends the active context along (traceparent), for model and MCP HTTP calls. */
  propagatingFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /** The headers that carry the active context (traceparent…), for HTTP clients that are not fetch. */
  propagationHeaders(): Record<string, string>;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const NOOP_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export const TRACING_DISABLED: Tracing = Object.freeze({
  enabled: false,
  startSpan: () => NOOP_SPAN,
  withSpan: <T>(_span: Span, fn: () => T): T => fn(),
  withContext: <T>(_context: Context, fn: () => T): T => fn(),
  contextWith: () => ROOT_CONTEXT,
  extract: () => ROOT_CONTEXT,
  propagatingFetch: (fetch: typeof globalThis.fetch) => fetch,
  propagationHeaders: () => ({}),
  shutdown: () => Promise.resolve(),
});

/**
 * Runs `work` inside a new span and ends it: an error marks the span failed with `error.type` (the
 * error's name or code, never its message, which may carry caller or model text) and is rethrown.
 */
export async function inSpan<T>(tracing: Tracing, name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const span = tracing.startSpan(name, options);
  try {
    return await tracing.withSpan(span, () => work(span));
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : typeof error);
}
