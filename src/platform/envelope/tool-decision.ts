// The verdict on one tool name: allowed or not, the rule that decided it (human-readable,
// for logs and GET /api/capabilities) and, for a denial, a stable machine reason.

export type ToolDenialReason =
  | 'not-in-allowed-tools'
  | 'server-not-allowed'
  | 'not-requested'
  | 'autonomy-below-autonomous'
  | 'unknown-tool';

export type ToolDecision =
  | { readonly allowed: true; readonly rule: string }
  | { readonly allowed: false; readonly rule: string; readonly reason: ToolDenialReason };

export function deny(reason: ToolDenialReason, rule: string): ToolDecision {
  return Object.freeze({ allowed: false, rule, reason });
}
