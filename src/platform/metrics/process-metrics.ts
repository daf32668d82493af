// prom-client's Node process metrics (CPU, memory, heap, event-loop lag, GC, handles), collected once
// per process: they describe the process, not an app, and each collection keeps observers running,
// so several apps in one process (tests) share the one registry instead of stacking observers.
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

export function processMetricsRegistry(): Registry {
  if (registry === undefined) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
