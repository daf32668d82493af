export { SAFE_YAML_OPTIONS } from './safe-yaml-options.js';
export { nestsDeeperThan } from './yaml-nesting.js';
export { parseSafeDocument } from './parse-safe-document.js';
