// Keys of AppConfig:AI:RateLimits:{Policy}:PermitsPerMinute. The policy names are a closed set
// (declared here, re-exported by types.ts), so each is a fixed key: an unknown policy name is a typo and refused.
import { permitsPerMinuteCodec } from '../codecs/range-codecs.js';
import { defineKeys } from '../define-keys.js';

export const rateLimitPolicies = [
  'bundles-register',
  'bundles-runs',
  'bundles-poll',
  'bundles-delete',
  'tools-read',
  'tools-invoke',
  'workflows-write',
  'workflows-read',
  'evals-write',
  'evals-read',
  'schedules-write',
  'schedules-read',
  'webhooks-write',
  'webhooks-read',
] as const;
export type RateLimitPolicy = (typeof rateLimitPolicies)[number];

const defaults: Readonly<Record<RateLimitPolicy, number>> = {
  'bundles-register': 10,
  'bundles-runs': 60,
  'bundles-poll': 60,
  'bundles-delete': 60,
  'tools-read': 120,
  'tools-invoke': 60,
  'workflows-write': 30,
  'workflows-read': 120,
  'evals-write': 10,
  'evals-read': 120,
  'schedules-write': 30,
  'schedules-read': 120,
  'webhooks-write': 30,
  'webhooks-read': 120,
};

// `target` keeps the policy name as the field: rateLimits['bundles-register'], not …permitsPerMinute.
export const rateLimitKeys = defineKeys(
  rateLimitPolicies.map(
    (policy) =>
      ({
        key: `AppConfig:AI:RateLimits:${policy}:PermitsPerMinute`,
        codec: permitsPerMinuteCodec,
        default: defaults[policy],
        meaning: `Per-caller fixed one-minute window of the ${policy} policy (429 with Retry-After beyond).`,
        target: ['rateLimits', policy],
      }) as const,
  ),
);
