import { describe, expect, it } from 'vitest';
import { decodeEscapes } from './decoded-views.js';
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

/** Every character as a JSON `\uXXXX` escape. */
const escapeAll = (text: string): string => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** What a client that decodes JSON string escapes reads. */
const decoded = (text: string): string => decodeEscapes(text)?.text ?? text;

/** The accepted secrets of a rule's positive example, located in the text. */
function secretsOf(rule: (typeof secretRules)[number], text: string) {
  return findSecretMatches(text, 0, [rule]).filter((match) => match.accepted);
}

describe('secrets across encodings', () => {
  for (const rule of secretRules) {
    it(`${rule.id}: holds on the decoded value of a secret written with JSON \\u escapes`, () => {
      for (const [text, redacted] of rule.examples.detects) {
        // Positive control: as written, the table finds it.
        expect(redactText(text)).toBe(redacted);
        for (const match of secretsOf(rule, text)) {
          const secret = text.slice(match.secretStart, match.secretEnd);
          const whole = `${text.slice(0, match.secretStart)}${escapeAll(secret)}${text.slice(match.secretEnd)}`;
          const first = `${text.slice(0, match.secretStart)}${escapeAll(secret.slice(0, 1))}${secret.slice(1)}${text.slice(match.secretEnd)}`;
          // (A secret in JSON text may itself hold escapes: compare what a client reads.)
          const read = decoded(secret);
          for (const escaped of [whole, first]) {
            expect(decoded(redactText(escaped))).not.toContain(read);
            expect(decoded(redactText(escaped))).toContain('[REDACTED]');
          }
        }
      }
    });
  }

  for (const rule of secretRules.filter((candidate) => candidate.gluedAccept !== undefined)) {
    it(`${rule.id}: finds a secret glued to the word before it`, () => {
      for (const [text, redacted] of rule.examples.detects) {
        expect(redactText(text)).toBe(redacted);
        for (const match of secretsOf(rule, text)) {
          const secret = text.slice(match.secretStart, match.secretEnd);
          for (const word of ['key', 'Token1', 'x']) {
            const glued = `${text.slice(0, match.start)}${word}${text.slice(match.start)}`;
            // The rule itself finds it (not only a neighbouring keyword rule), and so does the table.
            expect(redactWith(glued, rule.id), glued).not.toContain(secret);
            expect(redactText(glued), glued).not.toContain(secret);
          }
        }
      }
    });
  }

  it('leaves a glued token-shaped word without digits alone, and never looks deep inside a long run', () => {
    expect(redactText('taskghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ done')).toBe('taskghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ done');
    const deep = `${'q'.repeat(16)}ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ`;
    expect(redactText(deep)).toBe(deep);
  });
});

