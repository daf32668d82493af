// Stored instants (epoch milliseconds) as ISO 8601 text for responses. Polls format the same few
// instants again and again (a run's created, started and completed times on every poll), and
// Date#toISOString costs about half a microsecond here: the last 4,096 distinct instants are
// remembered, and the memory is dropped whole when it fills (no order to keep, nothing to evict).
const MAX_REMEMBERED = 4096;
const remembered = new Map<number, string>();

export function isoInstant(epochMs: number): string {
  let text = remembered.get(epochMs);
  if (text === undefined) {
    text = new Date(epochMs).toISOString();
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(epochMs, text);
  }
  return text;
}
