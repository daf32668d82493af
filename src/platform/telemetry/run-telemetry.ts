// What the run engine hands each execution through when metrics or tracing are on (RunObserver):
// runs started, active and finished by family and outcome, their duration, and a `{family} run` span
// that the run's steps, model calls and tool calls nest under. The outcome is the final state the
// engine wrote for the execution (it owns every run's end); a run that wrote none here (lease lost,
// handed over by a stopping host) finished here as `interrupted`.
import type { RecordKey } from '../storage/index.js';
import type { CounterChild, GaugeChild, HistogramChild, RunFamily, ServiceMetrics } from '../metrics/index.js';
import { markFailed, type Tracing } from '../tracing/index.js';

/** Run collections by family (the families' run-store constants). */
export const RUN_FAMILIES: Readonly<Record<string, RunFamily>> = { 'bundle-run': 'bundle', 'workflow-run': 'workflow', 'eval-run': 'eval' };

interface FamilyBindings {
  readonly started: CounterChild;
  readonly active: GaugeChild;
  readonly finished: Map<string, { readonly count: CounterChild; readonly duration: HistogramChild }>;
}

export interface RunTelemetryOptions {
  readonly metrics: ServiceMetrics;
  readonly tracing: Tracing;
  readonly now?: () => number;
}

export function runTelemetry(options: RunTelemetryOptions): (key: RecordKey, execute: () => Promise<string>) => Promise<void> {
  const { metrics, tracing } = options;
  const now = options.now ?? (() => performance.now());
  const families = new Map<string, FamilyBindings>();
  const bindings = (family: string): FamilyBindings => {
    let bound = families.get(family);
    if (bound === undefined) {
      bound = { started: metrics.runsStarted.child(family), active: metrics.runsActive.child(family), finished: new Map() };
      families.set(family, bound);
    }
    return bound;
  };
  const finished = (bound: FamilyBindings, family: string, outcome: string) => {
    let child = bound.finished.get(outcome);
    if (child === undefined) {
      child = { count: metrics.runsFinished.child(family, outcome), duration: metrics.runDuration.child(family, outcome) };
      bound.finished.set(outcome, child);
    }
    return child;
  };

  return async (key, execute) => {
    const family = RUN_FAMILIES[key.collection] ?? key.collection;
    const bound = bindings(family);
    bound.started.inc();
    bound.active.inc();
    const started = now();
    const span = tracing.enabled
      ? tracing.startSpan(`${family} run`, { attributes: { 'portcullis.run.family': family, 'portcullis.run.id': key.id } })
      : undefined;
    let outcome = 'interrupted';
    try {
      outcome = (await (span === undefined ? execute() : tracing.withSpan(span, execute))).toLowerCase();
    } catch (error) {
      if (span !== undefined) markFailed(span, error);
      throw error;
    } finally {
      bound.active.dec();
      const end = finished(bound, family, outcome);
      end.count.inc();
      end.duration.observe((now() - started) / 1000);
      span?.setAttribute('portcullis.run.outcome', outcome);
      span?.end();
    }
  };
}
