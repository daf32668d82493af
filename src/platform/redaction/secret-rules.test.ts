import { describe, expect, it } from 'vitest';
import { findSecretMatches } from './find-secret-matches.js';
import { redactRange } from './redact-range.js';
import { redactText } from './redact-text.js';
import { secretRules } from './secret-rules.js';

const redactWith = (text: string, ruleId: string): string => {
  const rule = secretRules.find((candidate) => candidate.id === ruleId)!;
  return redactRange(text, findSecretMatches(text, 0, [rule]), 0, text.length);
};

describe('secret rule table', () => {
  it('gives every rule a unique id, a description and at least one positive and one near-miss example', () => {
    expect(new Set(secretRules.map((rule) => rule.id)).size).toBe(secretRules.length);
    for (const rule of secretRules) {
      expect(rule.description.length, rule.id).toBeGreaterThan(10);
      expect(rule.examples.detects.length, rule.id).toBeGreaterThan(0);
      expect(rule.examples.ignores.length, rule.id).toBeGreaterThan(0);
    }
  });

  it('covers every detector family of the design', () => {
    const ids = secretRules.map((rule) => rule.id);
    for (const family of ['aws', 'gcp', 'azure', 'github', 'gitlab', 'npm', 'slack', 'stripe', 'openai', 'anthropic', 'google-oauth', 'jwt', 'private-key', 'authorization', 'bearer', 'url-userinfo', 'generic-password', 'generic-secret', 'connection-string']) {
      expect(ids.some((id) => id.startsWith(family)), family).toBe(true);
    }
  });

  it('decides within each rule window whether a match exists', () => {
    for (const rule of secretRules) expect(rule.window, rule.id).toBeLessThanOrEqual(rule.maxLength + 1);
  });

  for (const rule of secretRules) {
    describe(rule.id, () => {
      it('redacts its positive examples on its own and within the whole table', () => {
        for (const [text, redacted] of rule.examples.detects) {
          expect(redactWith(text, rule.id)).toBe(redacted);
          expect(redactText(text)).toBe(redacted);
        }
      });

      it('leaves its near-miss examples alone', () => {
        for (const text of rule.examples.ignores) expect(redactWith(text, rule.id)).toBe(text);
      });

      it('starts every match with one of its anchors and stays within its declared length', () => {
        for (const [text] of rule.examples.detects) {
          for (const match of findSecretMatches(text, 0, [rule])) {
            const opening = text.slice(match.start, match.markerEnd).toLowerCase();
            expect(rule.anchors.some((anchor) => opening.startsWith(anchor)), opening).toBe(true);
            expect(match.markerEnd - match.start).toBeLessThanOrEqual(rule.maxLength);
          }
        }
      });
    });
  }
});
