import { describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_BACK_CHARS, REDACTED, StreamRedactor, redactText, secretRules } from './index.js';
import { seededRandom } from './adversarial-inputs.js';

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const keyBody = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';
const pemBlock = `-----BEGIN RSA PRIVATE KEY-----\n${keyBody}\n${keyBody}\n-----END RSA PRIVATE KEY-----`;

/** Secret kinds embedded in prose, each with the secret text that must never be shown. */
const cases: readonly { kind: string; text: string; secret: string }[] = [
  { kind: 'GitHub token', text: `use ${githubToken} now`, secret: githubToken },
  { kind: 'AWS key id', text: 'id AKIA' + 'IOSFODNN7EXAMPLE.', secret: 'AKIA' + 'IOSFODNN7EXAMPLE' },
  { kind: 'JWT', text: `token ${jwt} end`, secret: jwt },
  { kind: 'Authorization header', text: 'Authorization: Bearer abc123DEF456ghi789JKL\nnext', secret: 'abc123DEF456ghi789JKL' },
  { kind: 'password assignment', text: 'set password=Tr0ub4dor&3 then', secret: 'Tr0ub4dor' },
  { kind: 'URL userinfo password', text: 'db postgres://app:s3cr3t-pw@db:5432/x', secret: 's3cr3t-pw' },
  { kind: 'PEM private key', text: `key\n${pemBlock}\ndone`, secret: keyBody },
  { kind: 'OpenAI key', text: 'k=sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ ok', secret: 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ' },
];

const stream = (chunks: readonly string[], redactor = new StreamRedactor()): string => chunks.map((chunk) => redactor.push(chunk)).join('') + redactor.flush();
/** The 8-character pieces of a secret that show up in an output: none may, not even half a secret. */
const shownPartsOf = (output: string, secret: string): string[] =>
  Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8)).filter((piece) => output.includes(piece));

describe('StreamRedactor', () => {
  for (const { kind, text, secret } of cases) {
    it(`never shows a ${kind} split across two chunks, at every split point`, () => {
      const whole = redactText(text);
      const wrong: string[] = [];
      for (let split = 0; split <= text.length; split += 1) {
        const output = stream([text.slice(0, split), text.slice(split)]);
        if (shownPartsOf(output, secret).length > 0 || output !== whole) wrong.push(`${split}: ${output}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  for (const { kind, text, secret } of cases.slice(0, 5)) {
    it(`never shows a ${kind} split across three chunks, at every pair of split points`, () => {
      const whole = redactText(text);
      const wrong: string[] = [];
      for (let first = 0; first <= text.length; first += 1) {
        for (let second = first; second <= text.length; second += 1) {
          const output = stream([text.slice(0, first), text.slice(first, second), text.slice(second)]);
          if (shownPartsOf(output, secret).length > 0 || output !== whole) wrong.push(`${first}/${second}: ${output}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('redacts secrets delivered one character at a time exactly as redactText does', () => {
    for (const { text } of cases) expect(stream([...text])).toBe(redactText(text));
  });

  it('passes text without secrets through unchanged, at every split point and character by character', () => {
    const texts = [
      'The password policy says: rotate every token each quarter. See https://example.com:8443/docs.',
      'sk-learn, task-based, Asia, eyJ alone, -----BEGIN CERTIFICATE-----, Bearer of news, ghp_ docs',
      ...secretRules.flatMap((rule) => rule.examples.ignores).filter((text) => redactText(text) === text),
    ];
    for (const text of texts) {
      const splits = Array.from({ length: text.length + 1 }, (_, split) => stream([text.slice(0, split), text.slice(split)]));
      expect(splits.filter((output) => output !== text)).toEqual([]);
      expect(stream([...text])).toBe(text);
    }
  });

  it('emits ordinary prose at once, holding back at most a possible anchor prefix', () => {
    const prose = 'Streaming keeps latency low because each delta reaches the client as soon as it is known. '.repeat(20);
    const redactor = new StreamRedactor();
    expect(redactor.push(prose).length).toBeGreaterThanOrEqual(prose.length - 20);
    for (let offset = 0; offset < prose.length; offset += 5) {
      redactor.push(prose.slice(offset, offset + 5));
      expect(redactor.heldChars).toBeLessThanOrEqual(20);
    }
  });

  it('holds a possible secret only until it is decided, then emits it', () => {
    const redactor = new StreamRedactor();
    expect(redactor.push('my token')).toBe('my ');
    expect(redactor.push(' is in the vault\nok')).toBe('token is in the vault\nok');
    expect(redactor.push(' gh')).toBe(' ');
    expect(redactor.push('ost.')).toBe('ghost.');
  });

  it('never holds back more than its limit, whatever the stream contains', () => {
    const mixed = cases.map((entry) => entry.text).join(' password token: ') + ' eyJ' + 'a'.repeat(500);
    for (const holdBackChars of [DEFAULT_HOLD_BACK_CHARS, 64, 8]) {
      const redactor = new StreamRedactor({ holdBackChars });
      let output = '';
      for (let offset = 0; offset < mixed.length; offset += 3) {
        output += redactor.push(mixed.slice(offset, offset + 3));
        expect(redactor.heldChars).toBeLessThanOrEqual(Math.max(holdBackChars, 80));
      }
      output += redactor.flush();
      for (const { secret } of cases) expect(shownPartsOf(output, secret)).toEqual([]);
    }
  });

  it('replaces a secret longer than its limit and drops the rest of it as it streams', () => {
    const redactor = new StreamRedactor({ holdBackChars: 32 });
    const output = stream(['token ', jwt.slice(0, 20), jwt.slice(20, 60), jwt.slice(60), ' and more'], redactor);
    expect(output).toBe(`token ${REDACTED} and more`);
  });

  it('drops a private key body as it streams instead of buffering it', () => {
    const redactor = new StreamRedactor();
    let output = redactor.push('before -----BEGIN PRIVATE KEY-----\n');
    for (let line = 0; line < 200; line += 1) {
      output += redactor.push(`${keyBody}\n`);
      expect(redactor.heldChars).toBeLessThan(80);
    }
    output += redactor.push('-----END PRIVATE KEY----- after') + redactor.flush();
    expect(output).toBe(`before ${REDACTED} after`);
  });

  it('emits text that follows a private key block even when the stream ends right after it', () => {
    const block = `-----BEGIN PRIVATE KEY-----\n${keyBody}\n-----END PRIVATE KEY-----`;
    const whole = redactText(`${block}-x`);
    for (let split = 0; split <= block.length + 2; split += 1) {
      expect(stream([`${block}-x`.slice(0, split), `${block}-x`.slice(split)])).toBe(whole);
    }
    expect(stream([`${block}`, '-'])).toBe(`${REDACTED}-`);
  });

  it('drops an unterminated private key block through the end of the stream', () => {
    expect(stream(['a -----BEGIN EC PRIVATE KEY-----\n', keyBody, '\n', keyBody])).toBe(`a ${REDACTED}`);
  });

  it('starts afresh after flush', () => {
    const redactor = new StreamRedactor();
    stream(['-----BEGIN PRIVATE KEY-----\n', keyBody], redactor);
    expect(stream(['plain ', 'text'], redactor)).toBe('plain text');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new StreamRedactor({ holdBackChars: 0 })).toThrow(RangeError);
    expect(() => new StreamRedactor({ holdBackChars: 1.5 })).toThrow(RangeError);
  });

  it('matches redactText on random mixes of secrets, near misses and anchors in random chunks', () => {
    const random = seededRandom(0x9e3779b9);
    const parts = [
      ...secretRules.flatMap((rule) => [...rule.examples.detects.map(([text]) => text), ...rule.examples.ignores]),
      ' ', '\n', 'password', ' secret: ', '"', ';', '://', 'Bearer ', 'eyJ', '-----BEGIN ', 'sk-', '=', ': ', 'gh',
    ].filter((part) => !part.includes('service_account') && !part.startsWith('cut off'));
    const wrong: string[] = [];
    for (let round = 0; round < 1500; round += 1) {
      const text = Array.from({ length: 1 + random(6) }, () => parts[random(parts.length)]!).join('');
      const chunks: string[] = [];
      for (let offset = 0; offset < text.length; ) {
        const size = 1 + random(random(2) === 0 ? 4 : 40);
        chunks.push(text.slice(offset, offset + size));
        offset += size;
      }
      if (stream(chunks) !== redactText(text)) wrong.push(JSON.stringify(chunks));
    }
    expect(wrong).toEqual([]);
  });
});
