// A monotonically increasing count per label set (Prometheus `counter`; names end in `_total`).
import { MetricFamily, type MetricSnapshot, type MetricValue } from './metric-family.js';

export class CounterChild {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}

  inc(amount = 1): void {
    this.value += amount;
  }
}

export class CounterFamily extends MetricFamily<CounterChild> {
  readonly type = 'counter' as const;

  protected createChild(labels: Readonly<Record<string, string>>): CounterChild {
    return new CounterChild(labels);
  }

  protected collect(child: CounterChild, into: MetricValue[]): void {
    into.push({ value: child.value, labels: child.labels });
  }
}

/** A counter whose values are kept elsewhere (a tally by one label) and read when scraped. */
export class TalliedCounterFamily {
  readonly type = 'counter' as const;
  readonly aggregator = 'sum' as const;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelName: string,
    readonly read: () => Iterable<readonly [string, number]>,
  ) {}

  get(): MetricSnapshot {
    const values: MetricValue[] = [];
    for (const [label, value] of this.read()) values.push({ value, labels: { [this.labelName]: label } });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
