// What the governed call asks of the policy layer (DESIGN.md §18), and what it hears back: for a call
// the envelope grants, the layer's decision (allow, ask or deny, with the determining and erroring
// policy ids, the set's version and its mode); and, for a call that then runs, the count its run's
// counters take. The layer itself (src/policies) builds Cedar's request from this; the governed call
// combines the decision with the ceiling and writes it on the call's one audit line.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../platform/envelope/index.js';
import type { GovernedSurface } from './governed-call.js';
import type { Tool } from './tool.js';

export interface PolicyCall {
  readonly surface: GovernedSurface;
  readonly ownerId: string;
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly tool: Tool;
  readonly operation: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The run the call belongs to (its job id), for its counters; absent outside runs. */
  readonly runId?: string;
  /** The bundle's AGENT.md id, when a bundle's agent makes the call. */
  readonly bundleId?: string;
}

export type PolicyMode = 'Enforce' | 'Shadow';

/** The `policy` object of a `tool.call.decided` line, and what the governed call acts on. */
export interface PolicyJudgement {
  readonly version: string;
  readonly decision: 'allow' | 'ask' | 'deny';
  /** Ids of the policies that determined it (the matching permits or forbids). */
  readonly determining: readonly string[];
  /** Ids of the policies that failed to evaluate (the call is then denied). */
  readonly errors: readonly string[];
  readonly mode: PolicyMode;
  /** Why a denial without a determining policy was denied (no permit, arguments that do not map); else null. Never on the line. */
  readonly reason: string | null;
}

export interface PolicyGate {
  /** The policy layer's decision on a call the envelope grants. */
  judge(call: PolicyCall): Promise<PolicyJudgement>;
  /** Counts a call that runs in its run's counters (nothing outside runs). */
  ran(call: PolicyCall): Promise<void>;
}
