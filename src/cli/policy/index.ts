// Public surface of `portcullis policy …`.
export { runPolicy } from './run-policy.js';
export { POLICY_USAGE } from './policy-usage.js';
export { parsePolicyCases, DEFAULT_UTC_HOUR, type PolicyCase } from './policy-cases.js';
