// What the policy layer is asked about one tool call, and what it answers (DESIGN §18). The caller
// (the governed call, the explain route, `portcullis policy test`) fills the request from the caller's
// principal and the call; the decision is the policy layer's own, before the envelope and the ceiling.
import type { PolicyTool } from './policy-schema.js';

export type PolicySurface = 'bundle' | 'workflow' | 'eval' | 'direct' | 'mcp';

export interface PolicyPrincipal {
  /** The claim-family-prefixed owner id: the Caller entity's id. */
  readonly ownerId: string;
  /** The `sub`/`nameidentifier` claim, else "". */
  readonly subject: string;
  readonly roles: readonly string[];
  /** The token's string-valued claims: the Caller's tags. */
  readonly claims: Readonly<Record<string, string>>;
}

export interface PolicyRunFacts {
  /** Granted calls so far in this run, before this one (0 outside runs). */
  readonly toolCalls: number;
  /** Of those, calls of this tool. */
  readonly callsOfThisTool: number;
  /** The run's spend so far, in micro-USD. */
  readonly spentMicroUsd: number;
}

export interface PolicyRequest {
  readonly principal: PolicyPrincipal;
  readonly tool: PolicyTool;
  readonly operation: string;
  readonly surface: PolicySurface;
  /** The bundle's AGENT.md id, else "". */
  readonly bundleId: string;
  readonly run: PolicyRunFacts;
  /** 0–23. */
  readonly utcHour: number;
  /** The call's parameters as JSON; undefined is `{}`. */
  readonly arguments: unknown;
}

export type PolicyVerdict = 'allow' | 'ask' | 'deny';

export interface PolicyDecision {
  readonly decision: PolicyVerdict;
  /** Ids of the policies that decided: the matching permits of an allow or ask, the matching forbids of a deny. */
  readonly determining: readonly string[];
  /** Ids of the policies that failed to evaluate (the call is then denied). */
  readonly errors: readonly string[];
  /** Caller-safe: why it was denied or asks; null for an allow. */
  readonly reason: string | null;
}
