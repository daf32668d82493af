// Reads the standard OpenTelemetry variables (OTEL_*) into the tracing settings: tracing is on only
// when an OTLP traces endpoint is set (and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none
// says otherwise). The SDK is handed these values and never reads the environment itself, as every
// other setting comes from this module. When tracing is off nothing else is read or checked.
// Supported: OTLP over HTTP (protobuf or JSON); gRPC and other exporters are refused by name.
import type { TracingConfig, TracingSampler } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

export const TRACING_OFF: TracingConfig = Object.freeze({
  enabled: false,
  endpoint: null,
  protocol: 'http/protobuf',
  headers: {},
  timeoutMs: 10_000,
  compression: 'none',
  serviceName: 'portcullis',
  resourceAttributes: {},
  sampler: { kind: 'parentbased_always_on', ratio: 1 },
  propagators: ['tracecontext', 'baggage'],
  batch: { scheduleDelayMs: 5_000, exportTimeoutMs: 30_000, maxQueueSize: 2_048, maxExportBatchSize: 512 },
}) as TracingConfig;

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
const PROPAGATORS = ['tracecontext', 'baggage', 'none'] as const;

export function readTracingEnvironment(env: Env): { readonly value: TracingConfig; readonly problems: string[] } {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const tracesEndpoint = text('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = text('OTEL_EXPORTER_OTLP_ENDPOINT');
  const exporter = text('OTEL_TRACES_EXPORTER')?.toLowerCase() ?? 'otlp';
  if (text('OTEL_SDK_DISABLED')?.toLowerCase() === 'true' || exporter === 'none' || (tracesEndpoint ?? baseEndpoint) === undefined) {
    return { value: TRACING_OFF, problems };
  }
  if (exporter !== 'otlp') problems.push(`OTEL_TRACES_EXPORTER: '${exporter.slice(0, 32)}' is not supported; use otlp or none`);

  const endpoint = tracesEndpoint === undefined ? signalUrl(baseEndpoint as string) : tracesEndpoint;
  const endpointName = tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
  if (!isHttpUrl(endpoint)) problems.push(`${endpointName}: must be an http:// or https:// URL`);

  const protocol = (text('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? text('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf').toLowerCase();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL: '${protocol.slice(0, 32)}' is not supported; use http/protobuf or http/json`);
  }
  const headers = { ...pairs(env, 'OTEL_EXPORTER_OTLP_HEADERS', problems, true), ...pairs(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', problems, true) };
  const compression = (text('OTEL_EXPORTER_OTLP_TRACES_COMPRESSION') ?? text('OTEL_EXPORTER_OTLP_COMPRESSION') ?? 'none').toLowerCase();
  if (compression !== 'gzip' && compression !== 'none') problems.push(`OTEL_EXPORTER_OTLP_COMPRESSION: must be gzip or none`);
  const resourceAttributes = pairs(env, 'OTEL_RESOURCE_ATTRIBUTES', problems, false);

  const samplerName = (text('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(samplerName)) problems.push(`OTEL_TRACES_SAMPLER: must be one of ${SAMPLERS.join(', ')}`);
  const ratioText = text('OTEL_TRACES_SAMPLER_ARG');
  const ratio = ratioText === undefined ? 1 : Number(ratioText);
  if (samplerName.endsWith('traceidratio') && !(Number.isFinite(ratio) && ratio >= 0 && ratio <= 1)) {
    problems.push('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
  }

  const propagators = [...new Set((text('OTEL_PROPAGATORS') ?? 'tracecontext,baggage').toLowerCase().split(',').map((name) => name.trim()).filter(Boolean))];
  for (const name of propagators) {
    if (!(PROPAGATORS as readonly string[]).includes(name)) problems.push(`OTEL_PROPAGATORS: '${name.slice(0, 32)}' is not supported; use tracecontext, baggage or none`);
  }

  const positive = (names: readonly string[], fallback: number): number => {
    const name = names.find((candidate) => text(candidate) !== undefined);
    if (name === undefined) return fallback;
    const value = Number(text(name));
    if (Number.isSafeInteger(value) && value >= 1) return value;
    problems.push(`${name}: must be a whole number of at least 1`);
    return fallback;
  };
  const batch = {
    scheduleDelayMs: positive(['OTEL_BSP_SCHEDULE_DELAY'], TRACING_OFF.batch.scheduleDelayMs),
    exportTimeoutMs: positive(['OTEL_BSP_EXPORT_TIMEOUT'], TRACING_OFF.batch.exportTimeoutMs),
    maxQueueSize: positive(['OTEL_BSP_MAX_QUEUE_SIZE'], TRACING_OFF.batch.maxQueueSize),
    maxExportBatchSize: positive(['OTEL_BSP_MAX_EXPORT_BATCH_SIZE'], TRACING_OFF.batch.maxExportBatchSize),
  };
  if (batch.maxExportBatchSize > batch.maxQueueSize) problems.push('OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must not exceed OTEL_BSP_MAX_QUEUE_SIZE');

  return {
    problems,
    value: {
      enabled: true,
      endpoint,
      protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
      headers,
      timeoutMs: positive(['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT'], TRACING_OFF.timeoutMs),
      compression: compression === 'gzip' ? 'gzip' : 'none',
      serviceName: text('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? TRACING_OFF.serviceName,
      resourceAttributes,
      sampler: { kind: samplerName as TracingSampler['kind'], ratio: Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1 },
      propagators: propagators.filter((name): name is 'tracecontext' | 'baggage' => name === 'tracecontext' || name === 'baggage'),
      batch,
    },
  };
}

/** The base endpoint with the traces path appended (OTLP/HTTP: `{endpoint}/v1/traces`). */
function signalUrl(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

/** `key1=value1,key2=value2` with percent-encoded values (W3C baggage style). Header values are never echoed. */
function pairs(env: Env, name: string, problems: string[], secret: boolean): Record<string, string> {
  const raw = env[name]?.trim();
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (raw === undefined || raw === '') return out;
  for (const [index, entry] of raw.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const key = equals <= 0 ? '' : entry.slice(0, equals).trim();
    let value: string | undefined;
    try {
      value = equals <= 0 ? undefined : decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      value = undefined;
    }
    if (key === '' || value === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      problems.push(`${name}: entry ${index + 1} is not key=value${secret ? '' : ` (${entry.trim().slice(0, 64)})`}`);
      continue;
    }
    out[secret ? key.toLowerCase() : key] = value;
  }
  return { ...out };
}
