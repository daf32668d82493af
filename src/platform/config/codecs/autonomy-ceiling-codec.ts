// Envelope autonomy ceilings, per SPEC.md: an unknown name degrades to Restricted with a warning;
// a numeric or comma-composite value is refused. Unset (null or blank) is Restricted, silently.
import { parseAutonomyCeiling, type AutonomyTier } from '../../envelope/autonomy.js';
import { accept, isBlank, refuse, type Codec } from './codec.js';

export const autonomyCeilingCodec: Codec<AutonomyTier> = {
  display: 'Restricted | Supervised | Autonomous',
  decode(raw) {
    if (isBlank(raw)) return accept('Restricted');
    const parsed = parseAutonomyCeiling(raw);
    if (!parsed.ok) return refuse(`${parsed.reason}; use Restricted, Supervised or Autonomous`);
    if (!parsed.degraded) return accept(parsed.tier);
    return { ok: true, value: parsed.tier, warning: 'is not a known autonomy tier; treated as Restricted' };
  },
};
