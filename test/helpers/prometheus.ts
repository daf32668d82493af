// Reads a Prometheus text exposition with a real parser (parse-prometheus-text-format, the prom2json
// port), so tests assert on samples, never on the text with a regex. That parser folds every label
// set of a histogram into one bucket map (prom2json's shape, which loses the labels), so histograms are
// read from a second parse of the same text without the histograms' `# HELP` and `# TYPE` lines: their `_bucket`,
// `_sum` and `_count` series then come out as plain labelled samples.
import { createRequire } from 'node:module';

export interface PromSample {
  readonly value?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly buckets?: Readonly<Record<string, string>>;
  readonly count?: string;
  readonly sum?: string;
}

export interface PromFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly PromSample[];
}

const parsePrometheusTextFormat = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => PromFamily[];

export interface HistogramSeries {
  readonly count: number;
  readonly sum: number;
  /** Cumulative counts by upper bound (`le`, `+Inf` included). */
  readonly buckets: Readonly<Record<string, number>>;
}

export class Exposition {
  readonly families: ReadonlyMap<string, PromFamily>;
  readonly #series: ReadonlyMap<string, PromFamily>;

  constructor(text: string) {
    const parsed = parsePrometheusTextFormat(text);
    this.families = new Map(parsed.map((family) => [family.name, family]));
    // Their HELP and TYPE lines both go: a HELP line left behind would name a family the samples do not belong to.
    const histograms = new Set(parsed.filter((family) => family.type === 'HISTOGRAM').map((family) => family.name));
    const untyped = text
      .split('\n')
      .filter((line) => {
        const [hash, keyword, name] = line.trim().split(/\s+/, 3);
        return !(hash === '#' && (keyword === 'TYPE' || keyword === 'HELP') && name !== undefined && histograms.has(name));
      })
      .join('\n');
    // Untyped, each label set's _bucket, _sum and _count runs come out as families of their own: merged by name.
    const series = new Map<string, PromFamily>();
    for (const family of parsePrometheusTextFormat(untyped)) {
      const seen = series.get(family.name);
      series.set(family.name, seen === undefined ? family : { ...seen, metrics: [...seen.metrics, ...family.metrics] });
    }
    this.#series = series;
  }

  /** One labelled series of a histogram; undefined when it has none with exactly these labels. */
  histogram(name: string, labels: Readonly<Record<string, string>>): HistogramSeries | undefined {
    if (this.family(name).type !== 'HISTOGRAM') throw new Error(`${name} is not a histogram`);
    const find = (suffix: string, extra: Readonly<Record<string, string>> = {}) =>
      this.#series.get(`${name}${suffix}`)?.metrics.find((sample) => sameLabels(sample.labels ?? {}, { ...labels, ...extra }));
    const count = find('_count');
    if (count === undefined) return undefined;
    const buckets: Record<string, number> = {};
    for (const sample of this.#series.get(`${name}_bucket`)?.metrics ?? []) {
      const { le, ...rest } = sample.labels ?? {};
      if (le !== undefined && sameLabels(rest, labels)) buckets[le] = Number(sample.value);
    }
    return { count: Number(count.value), sum: Number(find('_sum')?.value), buckets };
  }

  family(name: string): PromFamily {
    const family = this.families.get(name);
    if (family === undefined) throw new Error(`no metric family ${name}`);
    return family;
  }

  /** The sample whose labels are exactly these. */
  sample(name: string, labels: Readonly<Record<string, string>> = {}): PromSample | undefined {
    return this.family(name).metrics.find((sample) => sameLabels(sample.labels ?? {}, labels));
  }

  /** A counter's or gauge's value, 0 when the labelled sample is absent. */
  value(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return Number(this.sample(name, labels)?.value ?? 0);
  }

  /** A histogram series' count, 0 when absent. */
  count(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return this.histogram(name, labels)?.count ?? 0;
  }

  /** Every label value of every series whose name starts with `prefix` (histogram series included). */
  labelValues(prefix: string): string[] {
    return [...this.#series.values()].filter((family) => family.name.startsWith(prefix)).flatMap((family) => family.metrics.flatMap((sample) => Object.values(sample.labels ?? {})));
  }
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
