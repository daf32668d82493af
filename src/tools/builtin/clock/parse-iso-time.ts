// Parses the ISO 8601 extended date-times people and models write: an offset (Z, ±HH, ±HHMM, ±HH:MM)
// makes it an instant, no offset makes it a wall time to be read in some zone. It does not accept week
// dates, ordinal dates, the basic (separator-free) format, 24:00, or leap seconds.
import { daysInMonth, wallTimeAsUtcMs, type WallTime } from './wall-time.js';

export type ParsedTime =
  | { readonly kind: 'instant'; readonly epochMs: number }
  | { readonly kind: 'wall'; readonly wall: WallTime };

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

export function parseIsoTime(text: string): ParsedTime | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zulu, sign, offH, offM = '0'] = match;
  const wall: WallTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    millisecond: Number(fraction.padEnd(3, '0').slice(0, 3)),
  };
  const fieldsValid =
    wall.month >= 1 && wall.month <= 12 && wall.day >= 1 && wall.day <= daysInMonth(wall.year, wall.month) &&
    wall.hour <= 23 && wall.minute <= 59 && wall.second <= 59;
  if (!fieldsValid) return undefined;
  if (zulu) return { kind: 'instant', epochMs: wallTimeAsUtcMs(wall) };
  if (!sign) return { kind: 'wall', wall };
  if (Number(offH) > 23 || Number(offM) > 59) return undefined;
  const offsetMs = (Number(offH) * 60 + Number(offM)) * 60_000 * (sign === '-' ? -1 : 1);
  return { kind: 'instant', epochMs: wallTimeAsUtcMs(wall) - offsetMs };
}
