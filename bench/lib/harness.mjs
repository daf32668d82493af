// Settings shared by the benchmarks: every rate-limit policy lifted, so the figures measure the work,
// not the limiter refusing it.
import { rateLimitPolicies } from '../../dist/src/platform/config/index.js';

export const UNLIMITED = Object.fromEntries(rateLimitPolicies.map((policy) => [policy, { PermitsPerMinute: 1_000_000 }]));
