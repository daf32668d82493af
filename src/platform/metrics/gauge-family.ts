// A value that goes up and down per label set (Prometheus `gauge`): moved by inc/dec, or read when
// scraped from a function the owner of the value registered (`track`), so counting costs nothing.
import { MetricFamily, type MetricValue } from './metric-family.js';

export class GaugeChild {
  value = 0;
  #read: (() => number) | undefined;
  constructor(readonly labels: Readonly<Record<string, string>>) {}

  inc(amount = 1): void {
    this.value += amount;
  }

  dec(amount = 1): void {
    this.value -= amount;
  }

  /** Reads the value when scraped; adds to what inc/dec moved. */
  track(read: () => number): void {
    this.#read = read;
  }

  current(): number {
    return this.value + (this.#read?.() ?? 0);
  }
}

export class GaugeFamily extends MetricFamily<GaugeChild> {
  readonly type = 'gauge' as const;

  protected createChild(labels: Readonly<Record<string, string>>): GaugeChild {
    return new GaugeChild(labels);
  }

  protected collect(child: GaugeChild, into: MetricValue[]): void {
    into.push({ value: child.current(), labels: child.labels });
  }
}
