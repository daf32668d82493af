// The tool-call counters and duration histogram, bound per tool object and surface the first time a
// pair is seen (then kept as long as the tool is), so counting a call costs two map lookups: no label
// strings per call. Outcome children are bound lazily, so tools never called add nothing to /metrics.
import type { CounterChild, HistogramChild, ServiceMetrics, ToolCallOutcome } from '../platform/metrics/index.js';
import type { GovernorDenial } from './governor.js';
import type { Tool } from './tool.js';

/** The `rule` label of a denied call. */
const DENIAL_RULE: Readonly<Record<GovernorDenial, string>> = {
  'not-granted': 'not_granted',
  autonomy: 'autonomy',
  'data-classification': 'data_classification',
};

class Bindings {
  readonly #outcomes = new Map<string, CounterChild>();
  readonly duration: HistogramChild;

  constructor(
    readonly metrics: ServiceMetrics,
    readonly tool: string,
    readonly surface: string,
  ) {
    this.duration = metrics.toolCallDuration.child(tool, surface);
  }

  outcome(outcome: ToolCallOutcome, denial?: GovernorDenial): CounterChild {
    const key = denial ?? outcome;
    let child = this.#outcomes.get(key);
    if (child === undefined) {
      child = this.metrics.toolCalls.child(this.tool, this.surface, outcome, denial === undefined ? '' : DENIAL_RULE[denial]);
      this.#outcomes.set(key, child);
    }
    return child;
  }
}

export class ToolCallMetrics {
  readonly #metrics: ServiceMetrics;
  readonly #byTool = new WeakMap<Tool, Map<string, Bindings>>();

  constructor(metrics: ServiceMetrics) {
    this.#metrics = metrics;
  }

  denied(tool: Tool, surface: string, denial: GovernorDenial): void {
    this.#for(tool, surface).outcome('denied', denial).inc();
  }

  completed(tool: Tool, surface: string, outcome: Exclude<ToolCallOutcome, 'denied'>, seconds: number): void {
    const bindings = this.#for(tool, surface);
    bindings.outcome(outcome).inc();
    bindings.duration.observe(seconds);
  }

  #for(tool: Tool, surface: string): Bindings {
    let bySurface = this.#byTool.get(tool);
    if (bySurface === undefined) {
      bySurface = new Map();
      this.#byTool.set(tool, bySurface);
    }
    let bindings = bySurface.get(surface);
    if (bindings === undefined) {
      bindings = new Bindings(this.#metrics, tool.descriptor.name, surface);
      bySurface.set(surface, bindings);
    }
    return bindings;
  }
}
