// OpenTelemetry tracing: the interface call sites use, its disabled constant, and the starter.
export { TRACING_DISABLED, inSpan, markFailed, SpanKind, SpanStatusCode, type Tracing, type SpanOptions, type Span, type Context, type Attributes, type HeaderCarrier } from './tracing.js';
export { startTracing, TRACER_NAME } from './start-tracing.js';
