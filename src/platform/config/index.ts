// The configuration module's public surface: load once at start-up, pass the frozen AppConfig on.
export { loadConfig, type LoadConfigOptions, type LoadConfigResult } from './load-config.js';
export { parseTimeSpan, POSITIVE_TIME_SPAN_PATTERN } from './parse-time-span.js';
export { configReference } from './config-reference.js';
export type { ConfigKeyDoc } from './config-key-doc.js';
export * from './types.js';
