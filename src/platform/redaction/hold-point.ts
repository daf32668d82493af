// Decides how much of a streamed text is final: the point before which no secret can still appear
// or change, given that more text may follow. Everything after it is the tail a stream holds back.
import type { SecretMatch } from './find-secret-matches.js';
import { findPartialAnchor } from './partial-anchor.js';
import type { SecretRule } from './secret-rule.js';
import { secretRules } from './secret-rules.js';

export interface HoldPoint {
  /** Text before this offset can be redacted and emitted now. */
  readonly hold: number;
  /** The earliest offset where a secret may still be starting (≥ hold); the text length if none. */
  readonly undecided: number;
}

/** `matches` are the raw matches of `text` from `from` on, as findSecretMatches reports them. */
export function findHoldPoint(text: string, from: number, matches: readonly SecretMatch[]): HoldPoint {
  let undecided = text.length;
  for (const rule of secretRules) undecided = Math.min(undecided, firstUndecidedAnchor(rule, text, from, undecided));
  undecided = Math.min(undecided, findPartialAnchor(text, from)?.start ?? undecided);
  return { hold: outsideMatches(undecided, matches), undecided };
}

/** The first anchor of `rule` (before `limit`) whose outcome could still change with more text. */
function firstUndecidedAnchor(rule: SecretRule, text: string, from: number, limit: number): number {
  const anchors = rule.anchorPattern;
  anchors.lastIndex = Math.max(from, text.length - Math.max(rule.window, rule.maxLength) - 1);
  for (let anchor = anchors.exec(text); anchor !== null && anchor.index < limit; anchor = anchors.exec(text)) {
    if (isUndecided(rule, text, anchor.index, anchor.index + anchor[0].length)) return anchor.index;
    anchors.lastIndex = anchor.index + 1;
  }
  return limit;
}

function isUndecided(rule: SecretRule, text: string, start: number, afterAnchor: number): boolean {
  rule.sticky.lastIndex = start;
  const found = rule.sticky.exec(text);
  // A match reaching the last character may still grow, or fail on the next character.
  if (found !== null) return start + found[0].length >= text.length - 1;
  if (text.length - start >= rule.window) return false;
  return !rule.stop.test(text.slice(afterAnchor));
}

/** Moves a cut point back out of any match that straddles it (overlapping matches chain). */
function outsideMatches(cut: number, matches: readonly SecretMatch[]): number {
  const spans = matches.map((match) => [match.start, match.end] as const).sort((a, b) => a[0] - b[0]);
  let mergedStart = -1;
  let mergedEnd = -1;
  for (const [start, end] of spans) {
    if (start >= cut) break;
    if (start >= mergedEnd) mergedStart = start;
    mergedEnd = Math.max(mergedEnd, end);
  }
  return mergedStart >= 0 && mergedStart < cut && cut < mergedEnd ? mergedStart : cut;
}
