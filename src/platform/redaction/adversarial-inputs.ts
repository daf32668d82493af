// Adversarial 1 MiB inputs, each built to make a backtracking rule go quadratic or worse. Shared by
// the regression test (a generous bound that only catastrophic backtracking can break) and by
// bench/redaction, which measures them against the 100 ms target.
import { secretRules } from './secret-rules.js';

export const MiB = 1 << 20;
const fill = (unit: string): string => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);

/** A seeded xorshift32 generator of integers below `below`: tests that generate inputs name a reproducible one. */
export function seededRandom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

const base64Run = (): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const random = seededRandom(0x2545f491);
  const chars: string[] = [];
  for (let i = 0; i < MiB; i += 1) chars.push(alphabet[random(64)]!);
  return chars.join('');
};

export const namedAdversarialInputs: [string, () => string][] = [
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
export const perAnchorAdversarialInputs: [string, () => string][] = secretRules.flatMap((rule) =>
  rule.anchors.flatMap((anchor): [string, () => string][] => [
    [`${rule.id}: '${anchor}' repeated`, () => fill(anchor)],
    [`${rule.id}: '${anchor}' + token characters repeated`, () => fill(`${anchor}${'Aa1'.repeat(12)} `)],
  ]),
);
