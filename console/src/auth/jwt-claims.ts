// Reads a JWT's payload for display only (who am I, which roles, when does it end). Nothing here is
// trusted: the service validates every token it receives.

export interface TokenClaims {
  readonly subject: string | null;
  readonly roles: readonly string[];
  /** Epoch milliseconds, or null when the token has no exp. */
  readonly expiresAt: number | null;
}

export function readClaims(token: string): TokenClaims | null {
  const part = token.split('.')[1];
  if (token.split('.').length !== 3 || part === undefined) return null;
  let payload: Record<string, unknown>;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    payload = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const name = [payload.sub, payload.oid, payload.name].find((value) => typeof value === 'string');
  const roles = [payload.roles, payload.role].flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : typeof value === 'string' ? [value] : []));
  return {
    subject: typeof name === 'string' ? name : null,
    roles: roles.filter((role): role is string => typeof role === 'string'),
    expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
  };
}
