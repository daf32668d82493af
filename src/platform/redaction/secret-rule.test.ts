import { describe, expect, it } from 'vitest';
import { defineSecretRule, type SecretRuleSpec } from './secret-rule.js';

const spec: SecretRuleSpec = {
  id: 'test-rule',
  description: 'a rule for tests',
  keeps: 'nothing',
  anchors: ['tst_'],
  pattern: /tst_[a-z]{8}/g,
  maxLength: 12,
  stop: /[^a-z_]/,
  examples: { detects: [['tst_abcdefgh', '[REDACTED]']], ignores: ['tst_abc'] },
};

describe('defineSecretRule', () => {
  it('derives a sticky pattern, an anchor finder and a default window of maxLength + 1', () => {
    const rule = defineSecretRule(spec);
    expect(rule.sticky.flags).toBe('y');
    expect(rule.anchorPattern.test('x TST_ y')).toBe(true);
    expect(rule.window).toBe(13);
  });

  it('refuses patterns that are not global or carry other flags', () => {
    expect(() => defineSecretRule({ ...spec, pattern: /tst_[a-z]{8}/ })).toThrow(/flags/);
    expect(() => defineSecretRule({ ...spec, pattern: /tst_[a-z]{8}/gm })).toThrow(/flags/);
  });

  it('refuses anchors that are empty or not lower-case', () => {
    expect(() => defineSecretRule({ ...spec, anchors: ['TST_'] })).toThrow(/anchors/);
    expect(() => defineSecretRule({ ...spec, anchors: [] })).toThrow(/anchors/);
  });

  it('refuses a maxLength that is not a positive integer and a global stop pattern', () => {
    expect(() => defineSecretRule({ ...spec, maxLength: 0 })).toThrow(/maxLength/);
    expect(() => defineSecretRule({ ...spec, stop: /[^a-z]/g })).toThrow(/stop/);
  });
});
