// Checks a time-zone name against the runtime's Intl (IANA) data. It keeps the caller's identifier (ICU
// would turn "Asia/Kolkata" into the legacy "Asia/Calcutta") and only fixes its case when Intl's name is
// the same one; it does not accept names Intl rejects (UTC offsets such as "+01:00", made-up zones).
export function resolveTimeZone(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}
