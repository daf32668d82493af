export { SAFE_YAML_OPTIONS } from './safe-yaml-options.js';
