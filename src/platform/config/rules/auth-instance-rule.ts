// The identity provider's metadata must be fetched over https unless RequireHttpsMetadata is
// explicitly false (local identity providers and tests).
import type { ConfigRule } from './config-rule.js';

const AUTH = 'AppConfig:AI:BundleExecution:Auth';

export const authInstanceRule: ConfigRule = {
  reads: [`${AUTH}:Instance`, `${AUTH}:RequireHttpsMetadata`],
  check({ bundleExecution: { auth } }, report) {
    if (auth.requireHttpsMetadata && new URL(auth.instance).protocol !== 'https:') {
      report.problem(`${AUTH}:Instance: must be an https:// URL unless ${AUTH}:RequireHttpsMetadata is false`);
    }
  },
};
