// Reads `--ttl` for `portcullis token`: whole seconds, or a number with s/m/h/d (`90s`, `15m`, `1h`, `2d`).

export const MAX_TTL_SECONDS = 365 * 86_400;
const unitSeconds: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds, or null when the text is not a positive duration within a year. */
export function parseTtl(text: string): number | null {
  const match = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  if (match === null) return null;
  const seconds = Number(match[1]) * (unitSeconds[match[2] || 's'] ?? 1);
  return seconds >= 1 && seconds <= MAX_TTL_SECONDS ? seconds : null;
}
