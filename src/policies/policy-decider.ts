// Decides tool calls against one loaded policy set with Cedar's semantics (DESIGN §18): a call may run
// only if some permit matches and no forbid does; when a matching permit is annotated
// `@approval("required")` it asks a person instead; a policy that fails to evaluate denies the call
// (fail closed, the policy named in `errors`); arguments that cannot be handed to Cedar exactly deny
// it without asking Cedar. Everything per set is done once, at construction: per action, the policies
// that may apply are preparsed in Cedar (its stateful API, so no call re-parses the set) and what
// they read is known, so a call hands Cedar only that. Never throws on a request.
import { actionPlans, type ActionPlan } from './action-plan.js';
import type { Cedar } from './cedar-module.js';
import { cedarArguments, type ArgumentsMapped } from './policy-arguments.js';
import { cedarCall } from './cedar-call.js';
import { likeWork } from './like-work.js';
import { LIKE_WORK_BUDGET } from './policy-bounds.js';
import type { PolicyDecision, PolicyRequest } from './policy-request.js';
import { policyActionName } from './policy-schema.js';
import type { LoadedPolicySet, PolicyEntry } from './policy-set.js';

export const NO_PERMIT = 'No policy permits this call.';

export class PolicyDecider {
  readonly version: string;
  readonly #cedar: Cedar;
  readonly #plans: ReadonlyMap<string, ActionPlan>;
  readonly #byCedarId: ReadonlyMap<string, { readonly entry: PolicyEntry; readonly order: number }>;

  constructor(set: LoadedPolicySet) {
    this.version = set.version;
    this.#cedar = set.cedar;
    this.#plans = actionPlans(set);
    this.#byCedarId = new Map(set.policies.map((entry, order) => [entry.cedarId, { entry, order }]));
    this.#preparse();
  }

  decide(request: PolicyRequest): PolicyDecision {
    const action = policyActionName(request.tool.descriptor.name, request.operation);
    const plan = this.#plans.get(action);
    if (plan === undefined) return deny(`The policy schema has no action "${action}", so no policy can permit the call.`);
    if (plan.policies.length === 0) return deny(NO_PERMIT);
    const counters = [request.run.toolCalls, request.run.callsOfThisTool, request.run.spentMicroUsd, request.utcHour];
    if (!counters.every((n) => Number.isSafeInteger(n) && n >= 0)) return deny("The call's run counters are not whole numbers, so no policy can judge it.");
    const args = cedarArguments(plan.argumentsType, request.arguments, { readable: plan.readable ?? undefined });
    if (!args.mappable) return deny(args.reason);
    if (plan.likes.length > 0 && likeWork(plan.likes, textLengths(request, args)) > LIKE_WORK_BUDGET) {
      return deny("The call's text is too long for this policy set's `like` patterns to be checked in time.");
    }
    return this.#ask(plan, request, args);
  }

  #ask(plan: ActionPlan, request: PolicyRequest, args: ArgumentsMapped): PolicyDecision {
    const answer = this.#cedar.statefulIsAuthorized(cedarCall(plan, request, args.value));
    if (answer.type === 'failure') return deny('The policy engine could not evaluate this call.');
    const { decision, diagnostics } = answer.response;
    const errors = this.#ids(diagnostics.errors.map((error) => error.policyId));
    const matched = this.#entries(diagnostics.reason);
    if (errors.length > 0) {
      const determining = decision === 'deny' ? matched.map((entry) => entry.id) : [];
      return { decision: 'deny', determining, errors, reason: `Policy ${list(errors)} failed to evaluate for this call, so it is denied.` };
    }
    const determining = matched.map((entry) => entry.id);
    if (decision === 'deny') return { decision: 'deny', determining, errors: [], reason: determining.length > 0 ? `Denied by policy ${list(determining)}.` : NO_PERMIT };
    const asking = matched.filter((entry) => entry.approval).map((entry) => entry.id);
    if (asking.length > 0) return { decision: 'ask', determining, errors: [], reason: `Policy ${list(asking)} requires a person's approval.` };
    return { decision: 'allow', determining, errors: [], reason: null };
  }

  /** The set's entries for Cedar's ids, in the set's order (Cedar's own order is not stable). */
  #entries(cedarIds: readonly string[]): PolicyEntry[] {
    const found = [...new Set(cedarIds)].flatMap((id) => {
      const known = this.#byCedarId.get(id);
      return known === undefined ? [] : [known];
    });
    return found.sort((a, b) => a.order - b.order).map((known) => known.entry);
  }

  #ids(cedarIds: readonly string[]): string[] {
    return this.#entries(cedarIds).map((entry) => entry.id);
  }

  #preparse(): void {
    const done = new Set<string>();
    for (const plan of this.#plans.values()) {
      if (done.has(plan.preparsedId) || plan.policies.length === 0) continue;
      const staticPolicies = Object.fromEntries(plan.policies.map((policy) => [policy.cedarId, policy.text]));
      const answer = this.#cedar.preparsePolicySet(plan.preparsedId, { staticPolicies });
      if (answer.type === 'failure') throw new Error(`Cedar refused a policy set it had validated: ${answer.errors.map((e) => e.message).join('; ')}`);
      done.add(plan.preparsedId);
    }
  }
}

function deny(reason: string): PolicyDecision {
  return { decision: 'deny', determining: [], errors: [], reason };
}

function list(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}

function textLengths(request: PolicyRequest, args: ArgumentsMapped) {
  const fixed = new Map<string, number>([
    ['operation', request.operation.length],
    ['surface', request.surface.length],
    ['bundleId', request.bundleId.length],
    ['subject', request.principal.subject.length],
    ['riskTier', request.tool.descriptor.riskTier.length],
    ['server', request.tool.server.length],
  ]);
  const tags = Object.values(request.principal.claims).filter((value): value is string => typeof value === 'string');
  const longestTag = tags.reduce((longest, value) => Math.max(longest, value.length), 0);
  return {
    byName: (name: string) => Math.max(fixed.get(name) ?? 0, args.longestText.get(name) ?? 0),
    longestTag,
    longestAnywhere: Math.max(longestTag, args.longestTextAnywhere, ...fixed.values()),
  };
}
