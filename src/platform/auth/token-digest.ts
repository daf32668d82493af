// SHA-256 of a bearer token: the token cache key and the log fingerprint, so the raw token string is
// never stored as a key nor written to a log.
import { createHash } from 'node:crypto';

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
