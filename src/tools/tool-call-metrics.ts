// The tool-call counters and duration histogram, bound per tool name and surface the first time a pair
// is seen, so counting a call costs two map lookups: no label strings per call. Outcome children are
// bound lazily, so tools never called add nothing to /metrics. Tool names come from the registry
// (a name nobody offers is counted as `unknown`), so the label set stays bounded.
import type { CounterChild, HistogramChild, ServiceMetrics, ToolCallOutcome } from '../platform/metrics/index.js';
import type { GovernorDenial } from './governed-call.js';
import type { Tool } from './tool.js';

/** The `rule` label of a denied call. */
const DENIAL_RULE: Readonly<Record<GovernorDenial, string>> = {
  'not-granted': 'not_granted',
  policy: 'policy',
  autonomy: 'autonomy',
  'data-classification': 'data_classification',
  approval: 'approval',
};

/** The tool label of a call whose tool no one offers. */
const UNKNOWN_TOOL = 'unknown';

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
  readonly #byTool = new Map<string, Map<string, Bindings>>();

  constructor(metrics: ServiceMetrics) {
    this.#metrics = metrics;
  }

  /** `tool` is the offered tool's name, or null for a name no one offers. */
  denied(tool: string | null, surface: string, denial: GovernorDenial): void {
    this.#for(tool ?? UNKNOWN_TOOL, surface).outcome('denied', denial).inc();
  }

  refused(tool: Tool, surface: string): void {
    this.#for(tool.descriptor.name, surface).outcome('refused').inc();
  }

  completed(tool: Tool, surface: string, outcome: Exclude<ToolCallOutcome, 'denied' | 'refused'>, seconds: number): void {
    const bindings = this.#for(tool.descriptor.name, surface);
    bindings.outcome(outcome).inc();
    bindings.duration.observe(seconds);
  }

  #for(tool: string, surface: string): Bindings {
    let bySurface = this.#byTool.get(tool);
    if (bySurface === undefined) {
      bySurface = new Map();
      this.#byTool.set(tool, bySurface);
    }
    let bindings = bySurface.get(surface);
    if (bindings === undefined) {
      bindings = new Bindings(this.#metrics, tool, surface);
      bySurface.set(surface, bindings);
    }
    return bindings;
  }
}
