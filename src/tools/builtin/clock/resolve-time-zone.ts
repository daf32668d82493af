// Checks a time-zone name against the runtime's Intl (IANA) data. It keeps the caller's identifier (ICU
// would turn "Asia/Kolkata" into the legacy "Asia/Calcutta") and only fixes its case when Intl's name is
// the same one; it does not accept names Intl rejects (UTC offsets such as "+01:00", made-up zones).
// Results are memoised (bounded): constructing an Intl.DateTimeFormat dominates the cost of a call.
const MAX_CACHED_ZONES = 1024;
const cache = new Map<string, string | undefined>();

export function resolveTimeZone(name: string): string | undefined {
  if (cache.has(name)) return cache.get(name);
  const result = resolveUncached(name);
  if (cache.size >= MAX_CACHED_ZONES) cache.delete(cache.keys().next().value as string);
  cache.set(name, result);
  return result;
}

function resolveUncached(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}
