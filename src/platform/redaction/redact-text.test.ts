import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from './index.js';

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const pemBody = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';

describe('redactText', () => {
  it('keeps the non-secret prefix of header, key=value and URL secrets', () => {
    expect(redactText('Authorization: Bearer abc123DEF456ghi789')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactText('login password=hunter2 ok')).toBe('login password=[REDACTED] ok');
    expect(redactText('GET https://user:pa55word@host.example/x')).toBe('GET https://user:[REDACTED]@host.example/x');
  });

  it('replaces a whole vendor token and leaves the text around it', () => {
    expect(redactText(`use ${githubToken}, then push`)).toBe('use [REDACTED], then push');
  });

  it('redacts every secret in a text, not just the first', () => {
    const text = `a ${githubToken} b ${githubToken} c password: x1`;
    expect(redactText(text)).toBe('a [REDACTED] b [REDACTED] c password: [REDACTED]');
  });

  it('merges secrets found by overlapping rules into one marker', () => {
    expect(redactText(`GITHUB_TOKEN=${githubToken}`)).toBe('GITHUB_TOKEN=[REDACTED]');
  });

  it('redacts an unterminated private key block to the end of the text', () => {
    expect(redactText(`key follows\n-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n${pemBody}`)).toBe('key follows\n[REDACTED]');
  });

  it('is idempotent and never treats the marker as a secret', () => {
    const once = redactText(`token: ${githubToken} password="s3cret" https://u:p4ss@h`);
    expect(redactText(once)).toBe(once);
    expect(redactText(`password=${REDACTED} "password": "${REDACTED}"`)).toBe(`password=${REDACTED} "password": "${REDACTED}"`);
  });

  it('leaves ordinary prose, code and URLs untouched', () => {
    const prose = [
      'The password policy requires 12 characters; rotate your token every 90 days.',
      'const tokens = countTokens(text); // max_tokens: 4096, token_type: Bearer',
      'See https://example.com:8443/docs?page=2#secret-management and ssh://git@github.com/o/r.git',
      'function login(user: string, password: string) { return auth(user, password); }',
      'The bearer of this letter is authorised. Asia and AKIA are words; sk-learn is a library.',
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      'eyJhbGciOiJIUzI1NiJ9 is only a JWT header.',
    ].join('\n');
    expect(redactText(prose)).toBe(prose);
  });

  it('returns the empty string unchanged', () => {
    expect(redactText('')).toBe('');
  });
});
