// SPEC.md "Authentication" item 3: TenantId and ClientId both or neither; a scheme or
// AllowAnonymous, never both and never neither; AllowAnonymous only in Development.
import type { ConfigRule } from './config-rule.js';

const AUTH = 'AppConfig:AI:BundleExecution:Auth';

export const authSchemeRule: ConfigRule = {
  reads: [`${AUTH}:TenantId`, `${AUTH}:ClientId`, `${AUTH}:AllowAnonymous`],
  check({ environment, bundleExecution: { auth } }, report, { development }) {
    const hasTenant = auth.tenantId !== null;
    const hasClient = auth.clientId !== null;
    if (hasTenant !== hasClient) {
      const [missing, present] = hasTenant ? ['ClientId', 'TenantId'] : ['TenantId', 'ClientId'];
      report.problem(`${AUTH}:${missing}: must be set together with ${AUTH}:${present} (set both or neither)`);
    }
    const scheme = hasTenant && hasClient;
    if (!hasTenant && !hasClient && !auth.allowAnonymous) {
      report.problem(
        `${AUTH}: no authentication configured; set ${AUTH}:TenantId and ${AUTH}:ClientId, or ${AUTH}:AllowAnonymous to true (Development only)`,
      );
    }
    if (scheme && auth.allowAnonymous) {
      report.problem(`${AUTH}:AllowAnonymous: must not be true while a scheme is configured (TenantId and ClientId are set)`);
    }
    if (auth.allowAnonymous && !development) {
      report.problem(`${AUTH}:AllowAnonymous: is allowed only in the Development environment (the environment is ${environment})`);
    }
  },
};
