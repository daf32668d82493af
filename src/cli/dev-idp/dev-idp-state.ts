// The dev IdP's state file (`dev-idp.json`): fixed ids, address and private key so `portcullis token`
// can mint offline. Written atomically with mode 0600; read back with a shape check.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { generateSigningKey } from './signing-key.js';

export const STATE_FILE_NAME = 'dev-idp.json';
export const DEFAULT_STATE_DIR = '.portcullis';

export interface DevIdpState {
  readonly version: 1;
  readonly tenantId: string;
  readonly clientId: string;
  readonly host: string;
  /** The port last listened on; null before the first start. */
  readonly port: number | null;
  /** Private RS256 JWK with kid. */
  readonly signingKey: JWK;
  /** Public JWKs of earlier keys, still published so outstanding tokens keep validating. */
  readonly retiredKeys: readonly JWK[];
}

export function stateFilePath(stateDir: string): string {
  return join(stateDir, STATE_FILE_NAME);
}

export async function createDevIdpState(host: string): Promise<DevIdpState> {
  return { version: 1, tenantId: randomUUID(), clientId: randomUUID(), host, port: null, signingKey: await generateSigningKey(), retiredKeys: [] };
}

/** The stored state, or null when there is no state file; throws when the file is unreadable or malformed. */
export async function readDevIdpState(stateDir: string): Promise<DevIdpState | null> {
  const file = stateFilePath(stateDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  if (!isDevIdpState(parsed)) throw new Error(`${file} is not a dev-idp state file`);
  return parsed;
}

export async function writeDevIdpState(stateDir: string, state: DevIdpState): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const file = stateFilePath(stateDir);
  // Write-then-rename: a reader never sees half a file, and the key is 0600 from its first byte.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temporary, file);
}

function isDevIdpState(value: unknown): value is DevIdpState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const key = state.signingKey as Record<string, unknown> | null | undefined;
  return (
    state.version === 1 &&
    typeof state.tenantId === 'string' && /^[A-Za-z0-9-]+$/.test(state.tenantId) &&
    typeof state.clientId === 'string' && state.clientId !== '' &&
    typeof state.host === 'string' && state.host !== '' &&
    (state.port === null || (Number.isInteger(state.port) && (state.port as number) >= 0 && (state.port as number) <= 65_535)) &&
    typeof key === 'object' && key !== null && key.kty === 'RSA' && typeof key.d === 'string' && typeof key.kid === 'string' &&
    Array.isArray(state.retiredKeys)
  );
}
