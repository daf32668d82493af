// Turns a wall time in a zone into an instant the way Temporal's 'compatible' disambiguation does: a time
// skipped by a spring-forward gap moves forward by the gap, a time repeated by a fall-back takes the
// earlier instant. It assumes at most one offset change within a day either side of the time.
import { wallTimeAsUtcMs, type WallTime } from './wall-time.js';

const DAY_MS = 86_400_000;

export function wallTimeToInstant(wall: WallTime, offsetAt: (epochMs: number) => number): number {
  const asUtc = wallTimeAsUtcMs(wall);
  const offsetBefore = offsetAt(asUtc - DAY_MS);
  const offsetAfter = offsetAt(asUtc + DAY_MS);
  const matching = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => asUtc - offset)
    .filter((instant) => offsetAt(instant) === asUtc - instant);
  if (matching.length > 0) return Math.min(...matching);
  // In a gap no offset fits; reading the time with the pre-transition offset lands just past the gap.
  return asUtc - offsetBefore;
}
