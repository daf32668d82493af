// Describes one instant as seen in one zone: the UTC ISO string, the local ISO string with the zone's
// offset, and that offset. It does not validate the zone (resolveTimeZone does).
import { Temporal } from '../../../platform/vendor/temporal.js';
import { formatOffset } from './format-offset.js';

export interface InstantDescription {
  /** UTC, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
  readonly iso: string;
  /** Wall time in the zone with its offset, `YYYY-MM-DDTHH:mm:ss.sss±HH:MM`. */
  readonly local: string;
  readonly offset: string;
}

export function describeInstant(epochMs: number, timeZone: string): InstantDescription {
  const iso = new Date(epochMs).toISOString();
  // UTC (the default zone) has no offset to look up; a zone lookup in the polyfill costs ~5 µs a call.
  if (timeZone === 'UTC') return { iso, local: `${iso.slice(0, -1)}+00:00`, offset: '+00:00' };
  const offsetMs = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone).offsetNanoseconds / 1e6;
  const offset = formatOffset(offsetMs);
  const local = `${new Date(epochMs + offsetMs).toISOString().slice(0, -1)}${offset}`;
  return { iso, local, offset };
}
