// Display helpers: dates, durations, money, and any value (a step output, tool arguments) as text.

export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function dollars(value: number | undefined): string {
  return value === undefined ? '—' : `$${value.toFixed(value < 0.01 && value > 0 ? 6 : 4)}`;
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
