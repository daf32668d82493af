// The shape of one detector in the gitleaks-style rule table, and the factory that checks it at load.
// A rule describes where a secret starts and how far it can reach; it does not scan text itself.

/** Texts a rule must redact (with the exact result of that rule alone) and near misses it must leave. */
export interface SecretRuleExamples {
  readonly detects: readonly (readonly [text: string, redacted: string])[];
  readonly ignores: readonly string[];
}

export interface SecretRuleSpec {
  readonly id: string;
  readonly description: string;
  /** What survives redaction, for the rule table (e.g. "the key and separator"). */
  readonly keeps: string;
  /** Lower-case literals; every match begins with one of them. They double as the prefilter. */
  readonly anchors: readonly string[];
  /**
   * Linear pattern with flag `g` (optionally `i`): bounded repetition only, no nested quantifiers over
   * overlapping classes, lookbehinds of at most 16 characters. The secret is the first capture group
   * that took part, which must end the match (trailing context goes in a lookahead); without groups,
   * the whole match.
   */
  readonly pattern: RegExp;
  /** Block secrets (PEM): the end marker. The block runs to it, or to the end of the text without one. */
  readonly blockEnd?: RegExp;
  /** Upper bound on a match's length (for a block rule: on each of its markers). */
  readonly maxLength: number;
  /** Characters after a match's start within which it is decided whether one exists there. */
  readonly window?: number;
  /** Matches one character that never occurs in a match after its anchor. */
  readonly stop: RegExp;
  /** Extra precision check on the secret text (placeholders, entropy). */
  readonly accept?: (secret: string) => boolean;
  /**
   * Set by token rules that find a secret glued to the word before it (`keyghp_…`): their pattern
   * starts with `(?<![class]{16})` instead of a word boundary, so a match may follow up to 15 word
   * characters (never deep inside a long run, which keeps the scan linear). A match preceded by a
   * letter or digit must also pass this check: a token among letters needs more evidence.
   */
  readonly gluedAccept?: (secret: string) => boolean;
  readonly examples: SecretRuleExamples;
}

export interface SecretRule extends SecretRuleSpec {
  readonly window: number;
  /** The pattern made sticky, for deciding whether a match starts at one given offset. */
  readonly sticky: RegExp;
  /** Finds the rule's anchors, case-insensitively. */
  readonly anchorPattern: RegExp;
}

const escapeLiteral = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Validates a rule spec and derives its sticky and anchor patterns; throws on a malformed rule. */
export function defineSecretRule(spec: SecretRuleSpec): SecretRule {
  const { id, pattern, anchors, maxLength } = spec;
  if (!/^gi?$/.test(pattern.flags)) throw new Error(`secret rule ${id}: pattern flags must be "g" or "gi"`);
  if (anchors.length === 0 || anchors.some((anchor) => anchor === '' || anchor !== anchor.toLowerCase())) {
    throw new Error(`secret rule ${id}: anchors must be non-empty lower-case literals`);
  }
  if (!Number.isInteger(maxLength) || maxLength < 1) throw new Error(`secret rule ${id}: maxLength must be a positive integer`);
  if (spec.stop.global || spec.stop.sticky) throw new Error(`secret rule ${id}: stop must not be global or sticky`);
  return Object.freeze({
    ...spec,
    window: spec.window ?? maxLength + 1,
    sticky: new RegExp(pattern.source, pattern.flags.replace('g', '') + 'y'),
    anchorPattern: new RegExp(anchors.map(escapeLiteral).join('|'), 'gi'),
  });
}
