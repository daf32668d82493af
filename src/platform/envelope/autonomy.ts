// Autonomy tiers of the capability envelope, least to most privileged. Parsing follows SPEC.md:
// an unrecognised string degrades to the most restrictive tier; a numeric or comma-composite value
// is not a tier at all and is refused (the config loader turns that into a start-up refusal).

export const autonomyTiers = ['Restricted', 'Supervised', 'Autonomous'] as const;
export type AutonomyTier = (typeof autonomyTiers)[number];

export type AutonomyParse =
  | { readonly ok: true; readonly tier: AutonomyTier; readonly degraded: boolean }
  | { readonly ok: false; readonly reason: string };

export function parseAutonomyCeiling(raw: unknown): AutonomyParse {
  if (typeof raw === 'number') return { ok: false, reason: 'a numeric AutonomyCeiling is not allowed' };
  if (typeof raw !== 'string') return { ok: false, reason: 'AutonomyCeiling must be a string' };
  const text = raw.trim();
  if (text.includes(',')) return { ok: false, reason: 'a comma-composite AutonomyCeiling is not allowed' };
  if (/^[+-]?\d+$/.test(text)) return { ok: false, reason: 'a numeric AutonomyCeiling is not allowed' };
  const match = autonomyTiers.find((tier) => tier.toLowerCase() === text.toLowerCase());
  return match ? { ok: true, tier: match, degraded: false } : { ok: true, tier: 'Restricted', degraded: true };
}

export function minAutonomy(a: AutonomyTier, b: AutonomyTier): AutonomyTier {
  return autonomyTiers.indexOf(a) <= autonomyTiers.indexOf(b) ? a : b;
}
