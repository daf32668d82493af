// Secrets that only a property's key reveals: `{ password: "hunter2" }` holds one although neither
// string does on its own. The pair is read as the JSON text `"key": "value"` and scanned as a whole.
import { containsAnchor, findSecretMatches, type SecretMatch } from './find-secret-matches.js';
import { redactRange } from './redact-range.js';
import { REDACTED } from './redacted.js';

interface PairScan {
  readonly pair: string;
  readonly valueStart: number;
  readonly matches: readonly SecretMatch[];
}

function scanPair(key: string, value: string): PairScan | undefined {
  const keyText = JSON.stringify(key);
  const valueStart = keyText.length + 2;
  // A match that starts in the key begins with an anchor there; most keys (level, url, id) have none.
  if (!containsAnchor(`${keyText}: ${JSON.stringify(value.slice(0, 24))}`)) return undefined;
  const pair = `${keyText}: ${JSON.stringify(value)}`;
  const matches = findSecretMatches(pair);
  const keyed = matches.some((match) => match.accepted && match.start < valueStart && match.secretStart >= valueStart);
  return keyed ? { pair, valueStart, matches } : undefined;
}

/** True when a context rule (password=, token:, Authorization:, …) finds a secret in this key's value. */
export function isSecretPair(key: string, value: unknown): boolean {
  return typeof value === 'string' && value !== '' && scanPair(key, value) !== undefined;
}

/**
 * The value redacted in the light of its key, or undefined when the key adds nothing. The value keeps
 * its non-secret parts when JSON needs no escapes for it; otherwise it is replaced whole.
 */
export function redactPairValue(key: string, value: string): string | undefined {
  if (value === '') return undefined;
  const scan = scanPair(key, value);
  if (scan === undefined) return undefined;
  const { pair, valueStart, matches } = scan;
  if (pair.length - valueStart !== value.length + 2) return REDACTED;
  return redactRange(pair, matches, valueStart + 1, pair.length - 1);
}
