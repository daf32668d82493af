// Display helpers: dates, durations, money, and any value (a step output, tool arguments) as text.

export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The viewer's own IANA time zone, as the browser resolves it (the default a new schedule is read in). */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * An instant as a wall-clock time in a zone (the viewer's unless told), the zone named:
 * "Jan 15, 2025, 9:00:00 AM EST (America/New_York)".
 */
export function zoned(iso: string, options: { readonly timeZone?: string; readonly locale?: string } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const format = new Intl.DateTimeFormat(options.locale, { dateStyle: 'medium', timeStyle: 'long', ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }) });
  return `${format.format(date)} (${format.resolvedOptions().timeZone})`;
}

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

const CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const SUB_DOLLAR = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 20 });

/**
 * Dollars as people read them: cents from a dollar up ("$12.35"), and below a dollar up to four
 * significant digits so sub-cent model spend still shows ("$0.012", "$0.0085", "$0.10").
 */
export function dollars(value: number | null | undefined): string {
  if (value === undefined || value === null) return '—';
  const rounded = Number(value.toPrecision(4));
  return Math.abs(rounded) >= 1 ? CENTS.format(value) : SUB_DOLLAR.format(rounded);
}

export function percent(value: number | undefined): string {
  return value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;
}

/** Pretty JSON for objects, the string itself for strings: always rendered as text, never as markup. */
export function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return '(not representable as text)';
  }
}

/** A JSON string pretty-printed when it parses, else as given. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Time until `expiresAt` as of `now` (ms since the epoch): "4 min 12 s left", "expired", or "no expiry". */
export function timeLeft(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'no expiry';
  const end = new Date(expiresAt).getTime();
  if (Number.isNaN(end)) return expiresAt;
  if (end <= now) return 'expired';
  const seconds = Math.floor((end - now) / 1000);
  const [d, h, m, s] = [Math.floor(seconds / 86_400), Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60];
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${m} min left`;
  if (m > 0) return `${m} min ${s} s left`;
  return `${s} s left`;
}
