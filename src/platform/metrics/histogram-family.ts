// A distribution per label set (Prometheus `histogram`): cumulative `_bucket{le}` counts, `_sum` and
// `_count`. Observing finds the bucket and adds; the cumulative counts are built only when scraped.
import { MetricFamily, type MetricValue } from './metric-family.js';

/** Seconds: from half a millisecond (a cached poll) to a minute (a model call). */
export const DURATION_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class HistogramChild {
  /** Per bucket (not cumulative), the last slot counting values above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > (bounds[index] as number)) index += 1;
    this.counts[index] = (this.counts[index] as number) + 1;
    this.sum += value;
    this.count += 1;
  }
}

export class HistogramFamily extends MetricFamily<HistogramChild> {
  readonly type = 'histogram' as const;
  readonly #bounds: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], enabled: boolean, bounds: readonly number[] = DURATION_BUCKETS) {
    super(name, help, labelNames, enabled);
    this.#bounds = [...bounds].sort((a, b) => a - b);
  }

  protected createChild(labels: Readonly<Record<string, string>>): HistogramChild {
    return new HistogramChild(labels, this.#bounds);
  }

  protected collect(child: HistogramChild, into: MetricValue[]): void {
    let cumulative = 0;
    child.bounds.forEach((bound, index) => {
      cumulative += child.counts[index] as number;
      into.push({ metricName: `${this.name}_bucket`, labels: { ...child.labels, le: bound }, value: cumulative });
    });
    into.push({ metricName: `${this.name}_bucket`, labels: { ...child.labels, le: '+Inf' }, value: child.count });
    into.push({ metricName: `${this.name}_sum`, labels: child.labels, value: child.sum });
    into.push({ metricName: `${this.name}_count`, labels: child.labels, value: child.count });
  }
}
