// A real OpenID provider on loopback (the `portcullis dev-idp` server) and the settings that point
// the service at it, for HTTP-level authentication tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey, sign, type JsonWebKey } from 'node:crypto';
import { startDevIdp, type DevIdp } from '../../src/cli/dev-idp/index.js';
import { readDevIdpState } from '../../src/cli/dev-idp/dev-idp-state.js';

export async function startTestIdp(): Promise<DevIdp> {
  return startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
}

export interface KeyedTestIdp {
  readonly idp: DevIdp;
  /** An RS256 token of this header and claim set exactly as written (what `mintToken`'s objects cannot say: a member twice). */
  signRaw(claimSet: string, header?: string): string;
  close(): Promise<void>;
}

/** A provider whose signing key the test holds too (read back from its state file in a temporary directory). */
export async function startKeyedTestIdp(): Promise<KeyedTestIdp> {
  const stateDir = await mkdtemp(join(tmpdir(), 'portcullis-idp-'));
  const idp = await startDevIdp({ port: 0, host: '127.0.0.1', stateDir });
  const state = await readDevIdpState(stateDir);
  if (state === null) throw new Error('the dev identity provider wrote no state file');
  const key = createPrivateKey({ key: state.signingKey as JsonWebKey, format: 'jwk' });
  const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
  return {
    idp,
    signRaw: (claimSet, header = JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: state.signingKey.kid })) => {
      const input = `${encode(header)}.${encode(claimSet)}`;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    },
    close: async () => {
      await idp.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
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
