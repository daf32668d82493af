// How many secrets each detector rule has redacted in this process (the `portcullis_redactions_total`
// metric reads it when scraped). A process-wide tally, like the process metrics: redaction is a pure
// function called from everywhere, and one counter increment per secret found costs nothing when no
// secret is. Rule ids come from the rule table, so the set of keys is bounded.
const counts = new Map<string, number>();

export function countRedaction(ruleId: string): void {
  counts.set(ruleId, (counts.get(ruleId) ?? 0) + 1);
}

/** Redactions so far, by rule id. */
export function redactionCounts(): ReadonlyMap<string, number> {
  return counts;
}
