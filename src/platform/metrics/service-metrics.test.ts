import { describe, expect, it } from 'vitest';
import { Exposition } from '../../../test/helpers/prometheus.js';
import { CounterFamily } from './counter-family.js';
import { GaugeFamily } from './gauge-family.js';
import { HistogramFamily } from './histogram-family.js';
import { OVERFLOW_LABEL_VALUE } from './metric-family.js';
import { ServiceMetrics } from './service-metrics.js';

describe('the metric families, rendered by prom-client and read by a Prometheus parser', () => {
  it('renders counters, gauges (moved and tracked) and cumulative histogram buckets with _sum and _count', async () => {
    const metrics = new ServiceMetrics({ enabled: true });
    const calls = metrics.toolCalls.child('clock', 'direct', 'succeeded', '');
    calls.inc();
    calls.inc(2);
    metrics.runsActive.child('bundle').inc();
    metrics.runsQueued.child('workflow').track(() => 7);
    const http = metrics.httpRequestDuration.child('GET', '/healthz', '200');
    for (const seconds of [0.0004, 0.003, 0.003, 20]) http.observe(seconds);
    const parsed = new Exposition((await metrics.render()).body);

    expect(parsed.family('portcullis_tool_calls_total').type).toBe('COUNTER');
    expect(parsed.value('portcullis_tool_calls_total', { tool: 'clock', surface: 'direct', outcome: 'succeeded', rule: '' })).toBe(3);
    expect(parsed.value('portcullis_runs_active', { family: 'bundle' })).toBe(1);
    expect(parsed.value('portcullis_runs_queued', { family: 'workflow' })).toBe(7);
    const histogram = parsed.histogram('portcullis_http_request_duration_seconds', { method: 'GET', route: '/healthz', status: '200' });
    expect(histogram).toMatchObject({ count: 4, sum: 0.0004 + 0.003 + 0.003 + 20 });
    expect(histogram?.buckets).toMatchObject({ '0.0005': 1, '0.0025': 1, '0.005': 3, '10': 3, '30': 4, '+Inf': 4 });
    expect(parsed.histogram('portcullis_http_request_duration_seconds', { method: 'GET', route: '/healthz', status: '404' })).toBeUndefined();
  });

  it('renders the Node process metrics beside the service’s own', async () => {
    const parsed = new Exposition((await new ServiceMetrics({ enabled: true }).render()).body);
    expect(parsed.family('process_cpu_user_seconds_total').type).toBe('COUNTER');
    expect(parsed.family('nodejs_heap_size_used_bytes').type).toBe('GAUGE');
    expect(parsed.family('nodejs_eventloop_lag_seconds').type).toBe('GAUGE');
  });

  it('hands out the same child for the same labels, so callers bind once', () => {
    const family = new CounterFamily('c_total', 'c', ['a'], true);
    expect(family.child('x')).toBe(family.child('x'));
    expect(family.child('x')).not.toBe(family.child('y'));
    expect(() => family.child('x', 'y')).toThrow(/takes 1 label values/);
  });

  it('counts new label combinations beyond maxChildren under "other", so a label source cannot grow it without bound', () => {
    const family = new CounterFamily('c_total', 'c', ['tool', 'surface'], true, 3);
    for (const tool of ['a', 'b', 'c', 'd', 'e']) family.child(tool, 'bundle').inc();
    const values = family.get().values.map((value) => [value.labels, value.value]);
    expect(values).toEqual([
      [{ tool: 'a', surface: 'bundle' }, 1],
      [{ tool: 'b', surface: 'bundle' }, 1],
      [{ tool: 'c', surface: 'bundle' }, 1],
      [{ tool: OVERFLOW_LABEL_VALUE, surface: OVERFLOW_LABEL_VALUE }, 2],
    ]);
  });

  it('counts nothing and renders no service family when disabled', async () => {
    const metrics = new ServiceMetrics({ enabled: false });
    metrics.toolCalls.child('clock', 'direct', 'succeeded', '').inc();
    metrics.httpRequestDuration.child('GET', '/x', '200').observe(1);
    expect(metrics.toolCalls.get().values).toEqual([]);
    const parsed = new Exposition((await metrics.render()).body);
    expect([...parsed.families.keys()].filter((name) => name.startsWith('portcullis_'))).toEqual([]);
  });

  it('keeps gauges and histograms apart per label set', () => {
    const gauge = new GaugeFamily('g', 'g', ['family'], true);
    gauge.child('a').inc();
    gauge.child('a').dec();
    gauge.child('b').inc(2);
    expect(gauge.get().values.map((v) => v.value)).toEqual([0, 2]);
    const histogram = new HistogramFamily('h', 'h', ['x'], true, [1, 2]);
    histogram.child('p').observe(1.5);
    expect(histogram.get().values.map((v) => [v.metricName, v.labels.le, v.value])).toEqual([
      ['h_bucket', 1, 0],
      ['h_bucket', 2, 1],
      ['h_bucket', '+Inf', 1],
      ['h_sum', undefined, 1.5],
      ['h_count', undefined, 1],
    ]);
  });
});
