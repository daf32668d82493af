// The policy layer's public surface (DESIGN §18): the Cedar schema generated from the catalog, a
// call's arguments as Cedar values, loading and validating a policy set, and deciding calls against
// it. No HTTP and no governed-call wiring here: those use this.
export { cedarSchemaFor, policyActionName, CALL_ACTION_GROUP, POLICY_NAMESPACE, type PolicyTool } from './policy-schema.js';
export type { PolicySchema, CedarType, CedarRecordType, CedarAttribute } from './cedar-schema-types.js';
export { argumentsTypeOf, cedarTypeOf } from './cedar-type-of.js';
export { cedarArguments, type ArgumentMapping, type ArgumentsMapped, type ArgumentMappingOptions } from './policy-arguments.js';
export type { CedarValue, CedarRecordValue, CedarDecimal } from './cedar-value.js';
export { loadPolicySet, type LoadedPolicySet, type PolicyEntry, type PolicySetError, type PolicySetLoad, type PolicyWarning } from './policy-set.js';
export { PolicyDecider, NO_PERMIT } from './policy-decider.js';
export type { PolicyDecision, PolicyPrincipal, PolicyRequest, PolicyRunFacts, PolicySurface, PolicyVerdict } from './policy-request.js';
export { APPROVAL_REQUIRED } from './policy-annotations.js';
export {
  LIKE_WORK_BUDGET,
  MAX_ARGUMENT_DEPTH,
  MAX_ARGUMENT_NODES,
  MAX_ARGUMENT_TEXT,
  MAX_POLICIES,
  MAX_POLICY_TEXT_BYTES,
} from './policy-bounds.js';
export { PolicyLayer, PolicyLoadError, describeProblem, policyToolOf, type PolicyLayerOptions } from './policy-layer.js';
export { startPolicies, policyCatalog } from './start-policies.js';
