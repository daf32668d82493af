// Formats a UTC offset as ±HH:MM (±HH:MM:SS for the local mean times before standard time). The offsets
// themselves come from Temporal (temporal-polyfill over the runtime's tz data).
/** `+05:30`, `-04:00`, `+00:00`; seconds are shown only when present (local mean time before 1900). */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.abs(Math.trunc(offsetMs / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hhmm = `${sign}${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}`;
  return total % 60 === 0 ? hhmm : `${hhmm}:${pad(total % 60)}`;
}
