// Telemetry that spans several platform parts: what the run engine hands each execution through.
export { runTelemetry, RUN_FAMILIES, type RunTelemetryOptions } from './run-telemetry.js';
