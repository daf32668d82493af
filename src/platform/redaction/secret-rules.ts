// The rule table: every detector redaction runs, gitleaks-style. High precision over recall; what
// each rule keeps of the surrounding text is in its `keeps` field:
//
//   aws-access-key-id, gcp-api-key, github-*, gitlab-pat, npm-token, slack-token, stripe-secret-key,
//   openai-api-key, anthropic-api-key, google-oauth-access-token, jwt      → the whole token
//   private-key-block (unterminated: to the end of the text)               → the whole block
//   aws-secret-access-key, gcp-service-account-key, azure-shared-key, azure-sas-token,
//   generic-password, generic-secret, connection-string-password           → keeps key and separator
//   authorization-header (`Authorization: Bearer [REDACTED]`), bearer-token → keeps name and scheme
//   url-userinfo-password (`https://user:[REDACTED]@host`), slack-webhook-url → keeps scheme/user/host
import { cloudSecretRules } from './cloud-secret-rules.js';
import { credentialRules } from './credential-rules.js';
import { genericSecretRules } from './generic-secret-rules.js';
import type { SecretRule } from './secret-rule.js';
import { vendorTokenRules } from './vendor-token-rules.js';

export const secretRules: readonly SecretRule[] = Object.freeze([
  ...cloudSecretRules,
  ...vendorTokenRules,
  ...credentialRules,
  ...genericSecretRules,
]);
