// Runs the rule table over a text: a literal-anchor prefilter decides which rules run at all, then
// each rule's linear pattern scans the text once. Reports raw matches, accepted or not; never redacts.
import { REDACTED } from './redacted.js';
import type { SecretRule } from './secret-rule.js';
import { secretRules } from './secret-rules.js';

export interface SecretMatch {
  readonly rule: SecretRule;
  /** The whole match; for a block rule, its opening marker through its end marker (or the text's end). */
  readonly start: number;
  readonly end: number;
  /** The part that is replaced: the secret group, the whole token or the whole block. */
  readonly secretStart: number;
  readonly secretEnd: number;
  /** False when the candidate is a placeholder, the marker itself, or fails the rule's precision check. */
  readonly accepted: boolean;
  /** A block whose end marker has not appeared; it runs to the end of the text. */
  readonly unterminated: boolean;
  /** Where the opening marker of a block ends (the match end for other rules). */
  readonly markerEnd: number;
}

/** Called once per raw match; arguments rather than an object, because a 1 MiB text can hold 10⁵ matches. */
export type SecretMatchVisitor = (
  rule: SecretRule,
  start: number,
  end: number,
  secretStart: number,
  accepted: boolean,
  markerEnd: number,
  unterminated: boolean,
) => void;

/** One pattern for every anchor of a rule set: most texts (log fields, prose) contain none at all. */
const anyAnchorCache = new WeakMap<readonly SecretRule[], RegExp>();
function anyAnchor(rules: readonly SecretRule[]): RegExp {
  let pattern = anyAnchorCache.get(rules);
  if (pattern === undefined) {
    pattern = new RegExp(rules.map((rule) => rule.anchorPattern.source).join('|'), 'gi');
    anyAnchorCache.set(rules, pattern);
  }
  return pattern;
}

/** Whether any rule's anchor occurs in the text: without one, no rule can match. */
export function containsAnchor(text: string, from = 0, rules: readonly SecretRule[] = secretRules): boolean {
  const gate = anyAnchor(rules);
  gate.lastIndex = from;
  return gate.test(text);
}

/** Visits matches that start at or after `from`; text before it stays visible to lookbehinds. */
export function scanSecrets(text: string, from: number, rules: readonly SecretRule[], visit: SecretMatchVisitor): void {
  if (!containsAnchor(text, from, rules)) return;
  for (const rule of rules) {
    // Prefilter: a rule whose anchors never occur cannot match, and finding a literal is the cheap part.
    rule.anchorPattern.lastIndex = from;
    if (rule.anchorPattern.test(text)) scanRule(rule, text, from, visit);
  }
}

export function findSecretMatches(text: string, from = 0, rules: readonly SecretRule[] = secretRules): SecretMatch[] {
  const matches: SecretMatch[] = [];
  scanSecrets(text, from, rules, (rule, start, end, secretStart, accepted, markerEnd, unterminated) => {
    matches.push({ rule, start, end, secretStart, secretEnd: end, accepted, unterminated, markerEnd });
  });
  return matches;
}

function scanRule(rule: SecretRule, text: string, from: number, visit: SecretMatchVisitor): void {
  const { pattern, blockEnd } = rule;
  pattern.lastIndex = from;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    const start = found.index;
    const markerEnd = start + found[0].length;
    if (markerEnd === start) {
      pattern.lastIndex = start + 1;
      continue;
    }
    let end = markerEnd;
    let secretStart = markerEnd - secretLength(found);
    let unterminated = false;
    if (blockEnd !== undefined) {
      blockEnd.lastIndex = markerEnd;
      const closing = blockEnd.exec(text);
      unterminated = closing === null;
      end = closing === null ? text.length : closing.index + closing[0].length;
      secretStart = start;
      pattern.lastIndex = end;
    }
    visit(rule, start, end, secretStart, isAccepted(rule, text, start, secretStart, end), markerEnd, unterminated);
  }
}

/** The secret group ends the match by convention, so its length locates it. */
function secretLength(found: RegExpExecArray): number {
  for (let group = 1; group < found.length; group += 1) {
    const captured = found[group];
    if (captured !== undefined) return captured.length;
  }
  return found[0].length;
}

function isAccepted(rule: SecretRule, text: string, start: number, secretStart: number, secretEnd: number): boolean {
  const gluedAccept = start > 0 && isWordCharacter(text.charCodeAt(start - 1)) ? rule.gluedAccept : undefined;
  if (rule.accept === undefined && gluedAccept === undefined && secretEnd - secretStart !== REDACTED.length) return true;
  const secret = text.slice(secretStart, secretEnd);
  return secret !== REDACTED && (rule.accept?.(secret) ?? true) && (gluedAccept?.(secret) ?? true);
}

/** ASCII letters and digits: what "glued to the word before" means. */
function isWordCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
