// Detectors for vendor tokens recognisable by their prefix: GitHub, GitLab, npm, Slack, Stripe,
// OpenAI, Anthropic and Google OAuth. The whole token is redacted; the surrounding text is kept.
// A token glued to the word before it is found too, when it has both letters and digits.
import { lettersAndDigits } from './secret-checks.js';
import { defineSecretRule, type SecretRule } from './secret-rule.js';

const base62 = 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const hasDigit = (value: string): boolean => /[0-9]/.test(value);
const mixedAlphanumeric = (value: string): boolean => /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);

export const vendorTokenRules: readonly SecretRule[] = [
  defineSecretRule({
    id: 'github-token',
    description: 'GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens (ghp_, gho_, ghu_, ghs_, ghr_)',
    keeps: 'nothing',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_]{16})gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g,
    maxLength: 255,
    stop: /[^A-Za-z0-9_]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`git clone https://ghp_${base62}@github.com/o/r`, 'git clone https://[REDACTED]@github.com/o/r']],
      ignores: [`ghp_${base62.slice(1)}`, `ghx_${base62}`],
    },
  }),
  defineSecretRule({
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token (github_pat_)',
    keeps: 'nothing',
    anchors: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_]{16})github_pat_[A-Za-z0-9_]{50,244}(?![A-Za-z0-9_])/g,
    maxLength: 255,
    stop: /[^A-Za-z0-9_]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`GH_TOKEN github_pat_11ABCDEFG0_${base62}${base62.slice(0, 23)} set`, 'GH_TOKEN [REDACTED] set']],
      ignores: ['github_pat_short_value', 'see github_pat_ docs'],
    },
  }),
  defineSecretRule({
    id: 'gitlab-pat',
    description: 'GitLab personal access token (glpat-)',
    keeps: 'nothing',
    anchors: ['glpat-'],
    pattern: /(?<![A-Za-z0-9_-]{16})glpat-[A-Za-z0-9_-]{20,128}(?:\.[A-Za-z0-9_-]{1,64}){0,3}(?![A-Za-z0-9_-])/g,
    maxLength: 330,
    stop: /[^A-Za-z0-9_.-]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`token glpat-${base62.slice(0, 20)}.`, 'token [REDACTED].']],
      ignores: [`glpat-${base62.slice(0, 19)}`, 'xglpat-abcdefghijklmnopqrstuv'],
    },
  }),
  defineSecretRule({
    id: 'npm-token',
    description: 'npm access token (npm_ plus 36 characters)',
    keeps: 'nothing',
    anchors: ['npm_'],
    pattern: /(?<![A-Za-z0-9_]{16})npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    maxLength: 40,
    stop: /[^A-Za-z0-9_]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`//registry.npmjs.org/:_authToken=npm_${base62}`, '//registry.npmjs.org/:_authToken=[REDACTED]']],
      ignores: ['npm_config_registry=https://registry.npmjs.org/', `npm_${base62}x`],
    },
  }),
  defineSecretRule({
    id: 'slack-token',
    description: 'Slack bot, user, app, refresh and legacy tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-)',
    keeps: 'nothing',
    anchors: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-'],
    pattern: /(?<![A-Za-z0-9_-]{16})xox[baprs]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9_-])/g,
    maxLength: 255,
    stop: /[^A-Za-z0-9_-]/,
    accept: hasDigit,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`SLACK xoxb-1234567890-1234567890123-${base62.slice(0, 24)}`, 'SLACK [REDACTED]']],
      ignores: ['xoxb-not-a-real-token-at-all', `xoxq-1234567890-${base62.slice(0, 24)}`],
    },
  }),
  defineSecretRule({
    id: 'slack-webhook-url',
    description: 'Slack incoming-webhook / workflow URL (hooks.slack.com/services/…)',
    keeps: 'the host and the path kind',
    anchors: ['hooks.slack.com/'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9+/_-]{20,200})/g,
    maxLength: 240,
    stop: /[^A-Za-z0-9+/_-]/,
    examples: {
      detects: [
        [
          `POST https://hooks.slack.com/services/T00000000/B00000000/${base62.slice(0, 24)} ok`,
          'POST https://hooks.slack.com/services/[REDACTED] ok',
        ],
      ],
      ignores: ['https://hooks.slack.com/services/', 'https://api.slack.com/services/T00000000/B00000000/abc'],
    },
  }),
  defineSecretRule({
    id: 'stripe-secret-key',
    description: 'Stripe secret and restricted keys (sk_live_, rk_live_, sk_test_, rk_test_)',
    keeps: 'nothing',
    anchors: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'],
    pattern: /(?<![A-Za-z0-9_]{16})[rs]k_(?:live|test)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_])/g,
    maxLength: 255,
    stop: /[^A-Za-z0-9_]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`stripe.key=sk_live_${base62.slice(0, 24)}`, 'stripe.key=[REDACTED]']],
      ignores: [`pk_live_${base62.slice(0, 24)}`, 'sk_live_tooshort'],
    },
  }),
  defineSecretRule({
    id: 'openai-api-key',
    description: 'OpenAI API keys (sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…), not Anthropic sk-ant-',
    keeps: 'nothing',
    anchors: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-]{16})sk-(?!ant-)[A-Za-z0-9_-]{32,300}(?![A-Za-z0-9_-])/g,
    maxLength: 303,
    stop: /[^A-Za-z0-9_-]/,
    accept: mixedAlphanumeric,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`OPENAI_API_KEY: sk-proj-${base62}_${base62}`, 'OPENAI_API_KEY: [REDACTED]']],
      ignores: ['sk-this-is-not-a-real-key-just-a-long-slug-text', `task-${'a1b2c3d4e5'.repeat(4)}`],
    },
  }),
  defineSecretRule({
    id: 'anthropic-api-key',
    description: 'Anthropic API and admin keys (sk-ant-…)',
    keeps: 'nothing',
    anchors: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9_-]{16})sk-ant-[A-Za-z0-9_-]{32,300}(?![A-Za-z0-9_-])/g,
    maxLength: 307,
    stop: /[^A-Za-z0-9_-]/,
    accept: hasDigit,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`x-api-key sk-ant-api03-${base62}${base62}-AA`, 'x-api-key [REDACTED]']],
      ignores: ['sk-ant-short', 'sk-ant-just-words-without-any-digits-inside-it'],
    },
  }),
  defineSecretRule({
    id: 'google-oauth-access-token',
    description: 'Google OAuth 2.0 access token (ya29.)',
    keeps: 'nothing',
    anchors: ['ya29.'],
    pattern: /(?<![A-Za-z0-9_-]{16})ya29\.[A-Za-z0-9_-]{20,2048}/g,
    maxLength: 2053,
    stop: /[^A-Za-z0-9_-]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`access ya29.a0AfH6SMB${base62} expires`, 'access [REDACTED] expires']],
      ignores: ['ya29.short', 'ya29 a0AfH6SMBx1234567890abcdefghij'],
    },
  }),
];
