// The base of Portcullis's metric families: a name, help text, fixed label names and one child per
// label-value combination, bound once by the code that counts (`family.child('GET', '/healthz')`) and
// then updated with plain arithmetic — no label hashing, no allocation per observation. Families
// implement the metric interface prom-client's Registry renders (`get()`), so prom-client writes the
// exposition format, next to its Node process metrics. A disabled family hands out one inert child.
// A family holds at most `maxChildren` children; beyond that every new combination counts under
// label values `other`, so a misbehaving source of label values (an MCP server listing thousands of
// tools) cannot grow the exposition without bound.

export interface MetricValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly metricName?: string;
}

export interface MetricSnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly values: MetricValue[];
  readonly aggregator: 'sum';
}

export const DEFAULT_MAX_CHILDREN = 2_000;
export const OVERFLOW_LABEL_VALUE = 'other';

export abstract class MetricFamily<Child> {
  readonly aggregator = 'sum' as const;
  abstract readonly type: MetricSnapshot['type'];
  readonly #children = new Map<string, Child>();
  #inert: Child | undefined;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly enabled: boolean,
    readonly maxChildren = DEFAULT_MAX_CHILDREN,
  ) {}

  /** The child for these label values (in `labelNames` order); bind it once, outside hot paths. */
  child(...values: string[]): Child {
    // Disabled: one child nobody reads, so the code that counts needs no check of its own.
    if (!this.enabled) return (this.#inert ??= this.createChild({}));
    if (values.length !== this.labelNames.length) throw new Error(`${this.name} takes ${this.labelNames.length} label values, got ${values.length}`);
    const key = values.join('\u0000');
    const child = this.#children.get(key);
    if (child !== undefined) return child;
    if (this.#children.size < this.maxChildren) return this.#create(key, values);
    const overflow = this.labelNames.map(() => OVERFLOW_LABEL_VALUE);
    const overflowKey = overflow.join('\u0000');
    return this.#children.get(overflowKey) ?? this.#create(overflowKey, overflow);
  }

  #create(key: string, values: readonly string[]): Child {
    const child = this.createChild(Object.freeze(Object.fromEntries(this.labelNames.map((name, index) => [name, values[index] as string]))));
    this.#children.set(key, child);
    return child;
  }

  get(): MetricSnapshot {
    const values: MetricValue[] = [];
    for (const child of this.#children.values()) this.collect(child, values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  protected abstract createChild(labels: Readonly<Record<string, string>>): Child;
  protected abstract collect(child: Child, into: MetricValue[]): void;
}
