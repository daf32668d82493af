// AutoApproveUpTo (DESIGN.md §13): under Supervised with approvals on, a granted tool whose risk tier is
// at or below the envelope's threshold runs without asking a person. `None` asks for every call;
// `Critical` is never a threshold, so a critical tool always asks.
export const autoApproveTiers = ['None', 'Trivial', 'Low', 'Medium', 'High'] as const;
export type AutoApproveTier = (typeof autoApproveTiers)[number];

/** The risk tiers of a tool, lowest first (the same names as the tool metadata's riskTier). */
const riskOrder = ['Trivial', 'Low', 'Medium', 'High', 'Critical'] as const;

export function minAutoApprove(a: AutoApproveTier, b: AutoApproveTier): AutoApproveTier {
  return autoApproveTiers.indexOf(a) <= autoApproveTiers.indexOf(b) ? a : b;
}

/** Whether a tool of `riskTier` runs without asking under `threshold` (an unknown tier always asks). */
export function autoApproves(threshold: AutoApproveTier | undefined, riskTier: string): boolean {
  if (threshold === undefined || threshold === 'None') return false;
  const risk = riskOrder.indexOf(riskTier as (typeof riskOrder)[number]);
  return risk >= 0 && risk <= riskOrder.indexOf(threshold);
}
