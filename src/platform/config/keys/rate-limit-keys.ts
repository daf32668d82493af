// Keys of AppConfig:AI:RateLimits:{Policy}:PermitsPerMinute. The policy names are a closed set
// (types.ts), so each is a fixed key: an unknown policy name is a typo and refused.
import { permitsPerMinuteCodec } from '../codecs/range-codecs.js';
import type { KeyEntry } from '../key-entry.js';
import { rateLimitPolicies, type RateLimitPolicy } from '../types.js';

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
};

export const rateLimitKeys: readonly KeyEntry[] = rateLimitPolicies.map((policy) => ({
  key: `AppConfig:AI:RateLimits:${policy}:PermitsPerMinute`,
  codec: permitsPerMinuteCodec,
  default: defaults[policy],
  meaning: `Per-caller fixed one-minute window of the ${policy} policy (429 with Retry-After beyond).`,
  target: ['rateLimits', policy],
}));
