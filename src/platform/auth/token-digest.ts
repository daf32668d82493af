// SHA-256 of a bearer token: the token cache key and the log fingerprint, so the raw token string is
// never stored as a key nor written to a log. One-shot crypto.hash: no Hash object per request.
import { hash } from 'node:crypto';

export function tokenDigest(token: string): string {
  return hash('sha256', token, 'base64url');
}
