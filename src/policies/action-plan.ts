// What deciding one action needs, worked out once per policy set: the policies whose scope lets them
// apply to it (preparsed in Cedar as their own set, shared by every action with the same policies), the
// attribute names those policies read (null when one of them compares records whole: then every
// attribute is handed over), whether they read the caller's tags, their `like` operations, and the
// action's argument type.
import { createHash } from 'node:crypto';
import type { CedarRecordType } from './cedar-schema-types.js';
import type { LoadedPolicySet, PolicyEntry } from './policy-set.js';
import type { LikeRead } from './policy-reads.js';
import { scopeTestOf } from './policy-scope.js';

export interface ActionPlan {
  readonly tool: string;
  readonly operation: string;
  readonly argumentsType: CedarRecordType;
  readonly policies: readonly PolicyEntry[];
  /** The Cedar preparsed policy set holding `policies`. */
  readonly preparsedId: string;
  readonly readable: ReadonlySet<string> | null;
  readonly usesTags: boolean;
  readonly likes: readonly LikeRead[];
}

/** Every action of the set's schema, by name, with its plan. The caller preparses each distinct `preparsedId`. */
export function actionPlans(set: LoadedPolicySet): ReadonlyMap<string, ActionPlan> {
  const scopes = set.policies.map((policy) => ({ policy, applies: scopeTestOf(policy.json) }));
  const plans = new Map<string, ActionPlan>();
  for (const [name, action] of Object.entries(set.schema.Portcullis.actions)) {
    if (action.appliesTo === undefined) continue;
    const dot = name.lastIndexOf('.');
    const [tool, operation] = [name.slice(0, dot), name.slice(dot + 1)];
    const policies = scopes.filter((scope) => scope.applies(tool, operation)).map((scope) => scope.policy);
    const argumentsType = action.appliesTo.context.attributes['arguments'];
    if (argumentsType?.type !== 'Record') continue;
    plans.set(name, { tool, operation, argumentsType, policies, preparsedId: preparsedIdOf(set.version, policies), ...readsOfAll(policies) });
  }
  return plans;
}

function readsOfAll(policies: readonly PolicyEntry[]): Pick<ActionPlan, 'readable' | 'usesTags' | 'likes'> {
  const names = new Set<string>();
  for (const policy of policies) for (const name of policy.reads.names) names.add(name);
  return {
    readable: policies.some((policy) => policy.reads.observesRecords) ? null : names,
    usesTags: policies.some((policy) => policy.reads.usesTags),
    likes: policies.flatMap((policy) => policy.reads.likes),
  };
}

/** Same set version and same policies: the same preparsed content, so the id may be shared. */
function preparsedIdOf(version: string, policies: readonly PolicyEntry[]): string {
  const digest = createHash('sha256').update(policies.map((policy) => policy.cedarId).join(',')).digest('hex').slice(0, 16);
  return `portcullis:${version}:${digest}`;
}
