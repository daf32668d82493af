// Starts OpenTelemetry tracing from the OTEL_* settings (TracingConfig): a tracer provider with the
// configured sampler and resource, a batch span processor, the OTLP/HTTP exporter (protobuf or JSON)
// and an AsyncLocalStorage context manager, all created here and never registered globally. The SDK
// is imported only when tracing is on, so a service without an endpoint never loads it.
import { ROOT_CONTEXT, defaultTextMapGetter, defaultTextMapSetter, trace, type Context, type Span, type TextMapPropagator } from '@opentelemetry/api';
import type { TracingConfig } from '../config/types.js';
import type { HeaderCarrier, SpanOptions, Tracing } from './tracing.js';

export const TRACER_NAME = 'portcullis';

export async function startTracing(config: TracingConfig, version: string): Promise<Tracing> {
  if (!config.enabled || config.endpoint === null) throw new Error('startTracing needs tracing enabled with an endpoint');
  const [{ AsyncLocalStorageContextManager }, core, sdk, { resourceFromAttributes }, exporterModule] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    config.protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);

  const exporter = new exporterModule.OTLPTraceExporter({
    url: config.endpoint,
    headers: { ...config.headers },
    timeoutMillis: config.timeoutMs,
    compression: config.compression === 'gzip' ? ('gzip' as never) : ('none' as never),
  });
  const ratio = new sdk.TraceIdRatioBasedSampler(config.sampler.ratio);
  const root = { always_on: new sdk.AlwaysOnSampler(), always_off: new sdk.AlwaysOffSampler(), traceidratio: ratio };
  const kind = config.sampler.kind;
  const sampler = kind.startsWith('parentbased_')
    ? new sdk.ParentBasedSampler({ root: root[kind.slice('parentbased_'.length) as keyof typeof root] })
    : root[kind as keyof typeof root];
  const provider = new sdk.TracerProvider({
    sampler,
    resource: resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName, 'service.version': version }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.batch.scheduleDelayMs,
        exportTimeoutMillis: config.batch.exportTimeoutMs,
        maxQueueSize: config.batch.maxQueueSize,
        maxExportBatchSize: config.batch.maxExportBatchSize,
      }),
    ],
  });
  const tracer = provider.getTracer(TRACER_NAME, version);
  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagators: TextMapPropagator[] = config.propagators.map((name) => (name === 'baggage' ? new core.W3CBaggagePropagator() : new core.W3CTraceContextPropagator()));
  const propagator = new core.CompositePropagator({ propagators });

  const contextWith = (span: Span): Context => trace.setSpan(contexts.active(), span);
  const propagationHeaders = (): Record<string, string> => {
    const carrier: Record<string, string> = {};
    propagator.inject(contexts.active(), carrier, defaultTextMapSetter);
    return carrier;
  };
  return {
    enabled: true,
    startSpan: (name: string, options: SpanOptions = {}, parent?: Context) => tracer.startSpan(name, options, parent ?? contexts.active()),
    withSpan: (span, fn) => contexts.with(contextWith(span), fn),
    withContext: (context, fn) => contexts.with(context, fn),
    contextWith,
    extract: (headers: HeaderCarrier) => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
    propagatingFetch: (fetch) => (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      for (const [name, value] of Object.entries(propagationHeaders())) headers.set(name, value);
      return fetch(input, { ...init, headers });
    },
    propagationHeaders,
    shutdown: async () => {
      await provider.shutdown();
      contexts.disable();
    },
  };
}
