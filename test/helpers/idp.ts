// A real OpenID provider on loopback (the `portcullis dev-idp` server) and the settings that point
// the service at it, for HTTP-level authentication tests.
import { startDevIdp, type DevIdp } from '../../src/cli/dev-idp/index.js';

export async function startTestIdp(): Promise<DevIdp> {
  return startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
}

/** Settings for a JWT-authenticated service trusting this provider (Production rules). */
export function idpSettings(idp: DevIdp, ai: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    AppConfig: {
      AI: {
        ...ai,
        BundleExecution: {
          ...((ai.BundleExecution as Record<string, unknown> | undefined) ?? {}),
          Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
        },
      },
    },
  };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
