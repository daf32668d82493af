// Which actions a policy can apply to, read from its scope alone (the part before `when`). A tool's
// action always has that tool as its resource, so `resource == Portcullis::Tool::"http_fetch"` rules out
// every other tool's actions as surely as `action == …` does. Cedar evaluates the scope before the
// conditions, so a policy whose scope rules an action out neither matches nor errors for it: leaving it
// out of that action's decisions changes no answer.
import type { ActionConstraint, EntityUidJson, PolicyJson, ResourceConstraint } from '@cedar-policy/cedar-wasm/nodejs';
import { CALL_ACTION_GROUP, policyActionName } from './policy-schema.js';

/** Whether the policy may apply to `operation` of `tool`. */
export type ScopeTest = (tool: string, operation: string) => boolean;

export function scopeTestOf(policy: PolicyJson): ScopeTest {
  const actions = actionIds(policy.action);
  const tool = resourceTool(policy.resource);
  return (toolName, operation) =>
    (tool === null || tool === toolName) && (actions === null || actions.has(policyActionName(toolName, operation)));
}

/** The action ids the scope names, or null for every action (no constraint, or `in` the `call` group). */
function actionIds(constraint: ActionConstraint): ReadonlySet<string> | null {
  if (constraint.op === 'All' || 'slot' in constraint) return null;
  const uids = 'entities' in constraint ? constraint.entities : [constraint.entity];
  const ids = uids.map(idOf);
  return ids.includes(CALL_ACTION_GROUP) && constraint.op === 'in' ? null : new Set(ids);
}

/** The one tool the scope allows (`==`, or `in`: a Tool has no parents), or null for any. */
function resourceTool(constraint: ResourceConstraint): string | null {
  if (constraint.op === '==' || constraint.op === 'in') return 'entity' in constraint ? idOf(constraint.entity) : null;
  if (constraint.op === 'is' && constraint.in !== undefined && 'entity' in constraint.in) return idOf(constraint.in.entity);
  return null;
}

function idOf(uid: EntityUidJson): string {
  return '__entity' in uid ? uid.__entity.id : uid.id;
}
