import { describe, expect, it } from 'vitest';
import { seededRandom } from './adversarial-inputs.js';
import { containsSecret, MAX_REDACTION_DEPTH, secretRules, textCarriesNoSecret } from './index.js';

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** The one property the recorder relies on: whenever the text says "no secret", the value has none. */
const expectSound = (text: string): void => {
  if (textCarriesNoSecret(text)) expect(containsSecret(parsed(text)), text).toBe(false);
};

describe('textCarriesNoSecret', () => {
  it('decides an ordinary tool output (a clock reading, a list, prose) without parsing it', () => {
    expect(textCarriesNoSecret('{"iso":"2026-12-02T03:55:00.000Z","epochMs":1796183700000,"timeZone":"UTC","local":"2026-12-02T03:55:00.000+00:00"}')).toBe(true);
    expect(textCarriesNoSecret('[1, 2, {"name": "a"}]')).toBe(true);
    expect(textCarriesNoSecret('the weather is fine')).toBe(true);
  });

  it('leaves to the value scan any text with an anchor, an escape or deep nesting', () => {
    expect(textCarriesNoSecret('{"password":"hunter2"}')).toBe(false);
    expect(textCarriesNoSecret('{"note":"see https://example.com"}')).toBe(false);
    expect(textCarriesNoSecret('{"note":"\\u0067hp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ"}')).toBe(false);
    expect(textCarriesNoSecret('{"note":"line\\nbreak"}')).toBe(false);
    const deep = `${'['.repeat(MAX_REDACTION_DEPTH + 1)}1${']'.repeat(MAX_REDACTION_DEPTH + 1)}`;
    expect(containsSecret(JSON.parse(deep))).toBe(true);
    expect(textCarriesNoSecret(deep)).toBe(false);
    expect(textCarriesNoSecret(`${'['.repeat(MAX_REDACTION_DEPTH - 1)}1${']'.repeat(MAX_REDACTION_DEPTH - 1)}`)).toBe(true);
  });

  it('never says "no secret" of a text holding any rule example, as a value, a key or after a secret-marking key', () => {
    for (const rule of secretRules) {
      for (const [example] of rule.examples.detects) {
        const json = JSON.stringify(example);
        for (const text of [example, json, `{"v":${json}}`, `{${json}:1}`, `{"password":${json}}`, `[${json}]`]) {
          expect(containsSecret(parsed(text)), `${rule.id}: ${text}`).toBe(true);
          expect(textCarriesNoSecret(text), `${rule.id}: ${text}`).toBe(false);
        }
      }
    }
  });

  it('is sound over generated outputs mixing anchor fragments, escapes, quotes and colons', () => {
    // A seeded generator, so a failure names a reproducible text.
    const next = seededRandom(0x2545f491);
    const pieces = ['private_key', '"private', '_key"', ':', '//', 'https:', 'sk', '-', 'ant', 'pass', 'word', 'tok', 'en', 'gh', 'p_', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ', 'x', ' ', '=', 'sig', 'bear', 'er', '\n', '\u001b', 'é', '\ud800'];
    const word = (): string => Array.from({ length: 1 + next(5) }, () => pieces[next(pieces.length)]).join('');
    const value = (depth: number): unknown => {
      const kind = next(depth > 3 ? 3 : 5);
      if (kind === 0) return word();
      if (kind === 1) return next(1000);
      if (kind === 2) return null;
      if (kind === 3) return Array.from({ length: next(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: next(4) }, () => [word(), value(depth + 1)]));
    };
    // Letters written as \u escapes inside the JSON text (n, u and l stay: `null` is not a string).
    const escapeSome = (text: string): string => text.replace(/[a-km-tv-z]/g, (letter) => (next(3) === 0 ? `\\u00${letter.charCodeAt(0).toString(16)}` : letter));
    let decided = 0;
    for (let index = 0; index < 5_000; index += 1) {
      const v = value(0);
      for (const text of [JSON.stringify(v), JSON.stringify(v, null, 2), escapeSome(JSON.stringify(v)), typeof v === 'string' ? v : '']) {
        expectSound(text);
        if (textCarriesNoSecret(text)) decided += 1;
      }
    }
    // The generator also makes clean texts, so the property is exercised on both answers.
    expect(decided).toBeGreaterThan(100);
  });
});
