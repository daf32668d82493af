// Replaces secret spans inside [from, to) of a text with the marker. Overlapping spans become one
// marker; spans are clipped to the range, so a caller may cut at a span's edge and redact in pieces.
import { REDACTED } from './redacted.js';
import type { SecretMatch } from './find-secret-matches.js';
import { countRedaction } from './redaction-tally.js';

/** Span starts and ends as plain number arrays: cheap to collect for 10⁵ spans. */
export interface SecretSpans {
  readonly starts: number[];
  readonly ends: number[];
}

export function redactRange(text: string, matches: readonly SecretMatch[], from: number, to: number): string {
  const spans: SecretSpans = { starts: [], ends: [] };
  for (const match of matches) {
    if (match.accepted) {
      if (match.secretStart < to && match.secretEnd > from) countRedaction(match.rule.id);
      spans.starts.push(match.secretStart);
      spans.ends.push(match.secretEnd);
    }
  }
  return redactSpans(text, spans, from, to);
}

export function redactSpans(text: string, spans: SecretSpans, from: number, to: number): string {
  let out = '';
  let cursor = from;
  let openStart = -1;
  let openEnd = -1;
  for (const index of startOrder(spans.starts)) {
    const start = Math.max(spans.starts[index]!, from);
    const end = Math.min(spans.ends[index]!, to);
    if (start >= end) continue;
    if (openStart >= 0 && start < openEnd) {
      openEnd = Math.max(openEnd, end);
      continue;
    }
    if (openStart >= 0) out += text.slice(cursor, openStart) + REDACTED;
    if (openStart >= 0) cursor = openEnd;
    openStart = start;
    openEnd = end;
  }
  if (openStart >= 0) {
    out += text.slice(cursor, openStart) + REDACTED;
    cursor = openEnd;
  }
  return out + text.slice(cursor, to);
}

const INDEX_BITS = 2 ** 23;

/** Indices of `starts` in ascending order; a numeric typed-array sort when they are not sorted yet. */
function startOrder(starts: readonly number[]): Iterable<number> {
  let sorted = true;
  for (let i = 1; i < starts.length && sorted; i += 1) sorted = starts[i - 1]! <= starts[i]!;
  if (sorted) return starts.keys();
  if (starts.length >= INDEX_BITS) return [...starts.keys()].sort((a, b) => starts[a]! - starts[b]!);
  // start * 2^23 + index stays below 2^53 for any string V8 can hold, so the key is exact.
  const keys = Float64Array.from(starts, (start, index) => start * INDEX_BITS + index).sort();
  return Array.from(keys, (key) => key % INDEX_BITS);
}
