// Prometheus metrics: the service's metric families (service-metrics.ts) and the family types.
export { ServiceMetrics, type RunFamily, type ToolCallOutcome } from './service-metrics.js';
export { CounterFamily, CounterChild } from './counter-family.js';
export { GaugeFamily, GaugeChild } from './gauge-family.js';
export { HistogramFamily, HistogramChild, DURATION_BUCKETS } from './histogram-family.js';
export { OVERFLOW_LABEL_VALUE, DEFAULT_MAX_CHILDREN } from './metric-family.js';
