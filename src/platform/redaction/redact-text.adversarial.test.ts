// Regression guard against catastrophic backtracking: every input is 1 MiB built to make a
// backtracking rule go quadratic. Each must redact in < 100 ms; the best of up to three runs counts,
// so a loaded CI box (two cores, other suites running) does not fail it on one slow run.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { StreamRedactor } from './stream-redactor.js';
import { redactText } from './redact-text.js';
import { secretRules } from './secret-rules.js';

const MiB = 1 << 20;
const BUDGET_MS = 100;
const fill = (unit: string): string => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
const base64Run = (): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const chars: string[] = [];
  let state = 0x2545f491;
  for (let i = 0; i < MiB; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    chars.push(alphabet[(state >>> 0) % 64]!);
  }
  return chars.join('');
};

const named: [string, () => string][] = [
  ["'a' × 1 MiB", () => fill('a')],
  ["'-----BEGIN ' repeated", () => fill('-----BEGIN ')],
  ['unterminated private key headers repeated', () => fill('-----BEGIN RSA PRIVATE KEY-----\n')],
  ['tiny private key blocks repeated', () => fill('-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n')],
  ["'eyJ' + 'a' × 1 MiB", () => 'eyJ' + fill('a')],
  ["'eyJ' repeated", () => fill('eyJ')],
  ['JWT headers without payloads repeated', () => fill('eyJhbGciOiJIUzI1NiJ9.')],
  ["'password=' repeated", () => fill('password=')],
  ["'password: \"' repeated", () => fill('password: "')],
  ["'token=' repeated (rejected values)", () => fill('token=')],
  ["'://' + ':' × 1 MiB", () => '://' + fill(':')],
  ["'://' repeated", () => fill('://')],
  ["'://user:' repeated", () => fill('://user:')],
  ['a run of random base64 characters', base64Run],
  ["'Bearer ' repeated", () => fill('Bearer ')],
  ["'Bearer ' + 'A' × 1 MiB", () => 'Bearer ' + fill('A')],
  ["'Authorization: ' repeated", () => fill('Authorization: ')],
  ["'; Pwd=' repeated", () => fill('; Pwd=')],
  ['escaped JSON string after "private_key"', () => '"private_key": "' + fill('\\n')],
  ['whitespace only', () => fill(' \t\n')],
];
// Every anchor of every rule, repeated and followed by a run of token characters.
const perAnchor: [string, () => string][] = secretRules.flatMap((rule) =>
  rule.anchors.flatMap((anchor): [string, () => string][] => [
    [`${rule.id}: '${anchor}' repeated`, () => fill(anchor)],
    [`${rule.id}: '${anchor}' + token characters repeated`, () => fill(`${anchor}${'Aa1'.repeat(12)} `)],
  ]),
);

function bestTimeMs(run: () => void): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= BUDGET_MS; attempt += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('redactText on adversarial 1 MiB inputs', () => {
  for (const [name, make] of [...named, ...perAnchor]) {
    it(`redacts ${name} in under ${BUDGET_MS} ms`, () => {
      const text = make();
      expect(bestTimeMs(() => redactText(text))).toBeLessThan(BUDGET_MS);
    });
  }
});

describe('StreamRedactor on adversarial 1 MiB inputs', () => {
  for (const [name, make] of named) {
    it(`streams ${name} in 64 KiB chunks in linear time`, () => {
      const text = make();
      const elapsed = bestTimeMs(() => {
        const redactor = new StreamRedactor();
        for (let offset = 0; offset < text.length; offset += 1 << 16) redactor.push(text.slice(offset, offset + (1 << 16)));
        redactor.flush();
      });
      // Each chunk is scanned with bounded context, so the whole stream costs about what redactText does.
      expect(elapsed).toBeLessThan(BUDGET_MS * 2);
    });
  }
});
