// Reads a zone's UTC offset at an instant from Intl ('longOffset') and formats offsets as ±HH:MM; it holds
// no time-zone rules of its own, so DST and historical changes are whatever the runtime's tz data says.
const OFFSET_NAME = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Readers of a zone's offset (milliseconds east of UTC) at a given instant, one per zone (bounded). */
const MAX_CACHED_READERS = 1024;
const readers = new Map<string, (epochMs: number) => number>();
const utc = (): number => 0;

export function zoneOffsetReader(timeZone: string): (epochMs: number) => number {
  let reader = readers.get(timeZone);
  if (reader === undefined) {
    reader = createReader(timeZone);
    if (readers.size >= MAX_CACHED_READERS) readers.delete(readers.keys().next().value as string);
    readers.set(timeZone, reader);
  }
  return reader;
}

function createReader(timeZone: string): (epochMs: number) => number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  // UTC and its aliases (ICU names them all 'UTC') have no offset at any instant: nothing to format.
  if (format.resolvedOptions().timeZone === 'UTC') return utc;
  return (epochMs) => {
    const name = format.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
    const match = OFFSET_NAME.exec(name);
    if (!match) throw new Error(`Intl returned an offset name this module cannot read: ${name}`);
    const [, sign, hours = '0', minutes = '0', seconds = '0'] = match;
    const magnitude = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
    return sign === '-' ? -magnitude : magnitude;
  };
}

/** `+05:30`, `-04:00`, `+00:00`; seconds are shown only when present (local mean time before 1900). */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.abs(Math.trunc(offsetMs / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hhmm = `${sign}${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}`;
  return total % 60 === 0 ? hhmm : `${hhmm}:${pad(total % 60)}`;
}
