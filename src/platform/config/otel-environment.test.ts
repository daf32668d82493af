import { describe, expect, it } from 'vitest';
import { readTracingEnvironment, TRACING_OFF } from './otel-environment.js';

describe('readTracingEnvironment', () => {
  it('leaves tracing off without an endpoint, reading nothing else', () => {
    expect(readTracingEnvironment({ OTEL_TRACES_SAMPLER: 'bogus' })).toEqual({ value: TRACING_OFF, problems: [] });
  });

  it('stays off when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none say so', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(readTracingEnvironment({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).value.enabled).toBe(false);
    expect(readTracingEnvironment({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).value.enabled).toBe(false);
  });

  it('appends /v1/traces to the base endpoint and uses a traces endpoint as written', () => {
    expect(readTracingEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).value.endpoint).toBe('http://collector:4318/v1/traces');
    const both = readTracingEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' });
    expect(both.value.endpoint).toBe('https://b/otlp/traces');
  });

  it('reads the standard defaults: http/protobuf, parent-based always-on, tracecontext and baggage, service name portcullis', () => {
    const { value, problems } = readTracingEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(problems).toEqual([]);
    expect(value).toMatchObject({
      enabled: true,
      protocol: 'http/protobuf',
      timeoutMs: 10_000,
      compression: 'none',
      serviceName: 'portcullis',
      sampler: { kind: 'parentbased_always_on', ratio: 1 },
      propagators: ['tracecontext', 'baggage'],
      batch: { scheduleDelayMs: 5_000, exportTimeoutMs: 30_000, maxQueueSize: 2_048, maxExportBatchSize: 512 },
    });
  });

  it('reads headers (traces-specific over general, values percent-decoded), resource attributes, sampler, batch and protocol', () => {
    const { value, problems } = readTracingEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'Api-Key=a%20b,x-tenant=t1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=c',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=gate,deployment.environment=prod',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_PROPAGATORS: 'tracecontext',
    });
    expect(problems).toEqual([]);
    expect(value).toMatchObject({
      headers: { 'api-key': 'c', 'x-tenant': 't1' },
      protocol: 'http/json',
      timeoutMs: 2500,
      compression: 'gzip',
      serviceName: 'gate',
      resourceAttributes: { 'service.name': 'gate', 'deployment.environment': 'prod' },
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
      propagators: ['tracecontext'],
      batch: { scheduleDelayMs: 100 },
    });
    expect(readTracingEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:1', OTEL_SERVICE_NAME: 'named', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other' }).value.serviceName).toBe('named');
  });

  it('refuses every unsupported or malformed value at once, never echoing a header value', () => {
    const { problems } = readTracingEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '2',
      OTEL_BSP_MAX_QUEUE_SIZE: '-1',
      OTEL_PROPAGATORS: 'b3',
      OTEL_TRACES_EXPORTER: 'zipkin',
    });
    expect(problems).toEqual([
      "OTEL_TRACES_EXPORTER: 'zipkin' is not supported; use otlp or none",
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL',
      "OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' is not supported; use http/protobuf or http/json",
      'OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value',
      'OTEL_TRACES_SAMPLER: must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
      "OTEL_PROPAGATORS: 'b3' is not supported; use tracecontext, baggage or none",
      'OTEL_BSP_MAX_QUEUE_SIZE: must be a whole number of at least 1',
    ]);
  });
});
