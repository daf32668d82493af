// One decision's request to Cedar (DESIGN §18's vocabulary): principal Portcullis::Caller::"<owner id>"
// with `subject`, the string claims as tags and a parent Portcullis::Role per role (each Role entity
// included); resource Portcullis::Tool::"<name>" with riskTier, server and readOnly; action
// Portcullis::Action::"<name>.<operation>" with its parent, the `call` group, given as an entity (no
// schema rides along per call); and the context. Only attributes some policy of the plan reads are
// written (all of them when a policy compares records whole), which keeps the request small.
import type { Entities, EntityJson, StatefulAuthorizationCall } from '@cedar-policy/cedar-wasm/nodejs';
import type { ActionPlan } from './action-plan.js';
import type { CedarRecordValue } from './cedar-value.js';
import type { PolicyRequest } from './policy-request.js';
import { CALL_ACTION_GROUP, POLICY_NAMESPACE } from './policy-schema.js';

const CALLER = `${POLICY_NAMESPACE}::Caller`;
const ROLE = `${POLICY_NAMESPACE}::Role`;
const TOOL = `${POLICY_NAMESPACE}::Tool`;
const ACTION = `${POLICY_NAMESPACE}::Action`;

export function cedarCall(plan: ActionPlan, request: PolicyRequest, args: CedarRecordValue): StatefulAuthorizationCall {
  const reads = (name: string): boolean => plan.readable === null || plan.readable.has(name);
  const principal = { type: CALLER, id: request.principal.ownerId };
  const action = { type: ACTION, id: `${plan.tool}.${plan.operation}` };
  const resource = { type: TOOL, id: plan.tool };
  const roles = [...new Set(request.principal.roles)];
  const caller: EntityJson = {
    uid: principal,
    attrs: reads('subject') ? { subject: request.principal.subject } : {},
    parents: roles.map((role) => ({ type: ROLE, id: role })),
    ...(plan.usesTags ? { tags: stringClaims(request.principal.claims) } : {}),
  };
  const { descriptor, server } = request.tool;
  const tool: EntityJson = {
    uid: resource,
    attrs: pick(reads, { riskTier: descriptor.riskTier, server, readOnly: descriptor.isReadOnly }),
    parents: [],
  };
  const actionEntity: EntityJson = { uid: action, attrs: {}, parents: [{ type: ACTION, id: CALL_ACTION_GROUP }] };
  const entities: Entities = [caller, ...roles.map((role) => ({ uid: { type: ROLE, id: role }, attrs: {}, parents: [] })), tool, actionEntity];
  const run = pick(reads, { ...request.run });
  const context = pick(reads, { operation: request.operation, surface: request.surface, bundleId: request.bundleId, run, utcHour: request.utcHour, arguments: args });
  return { principal, action, resource, context, entities, preparsedPolicySetId: plan.preparsedId };
}

function pick<T extends Record<string, unknown>>(reads: (name: string) => boolean, values: T): Record<string, T[keyof T]> {
  const kept: Record<string, T[keyof T]> = {};
  for (const [name, value] of Object.entries(values)) if (reads(name)) kept[name] = value as T[keyof T];
  return kept;
}

/** Claims other than strings are not tags (the schema types tags as String). */
function stringClaims(claims: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.entries(claims).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
