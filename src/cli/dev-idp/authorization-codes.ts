// One-time authorization codes of the dev IdP's sign-in form: what the code was issued for (client,
// redirect, PKCE challenge, nonce, scope) and who signed in. Kept in memory for 60 s; redeeming a
// code removes it, so a code works once.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock/index.js';

export const CODE_TTL_MS = 60_000;

export interface AuthorizationGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly nonce: string | null;
  readonly subject: string;
  readonly roles: readonly string[];
}

export class AuthorizationCodes {
  readonly #codes = new Map<string, { grant: AuthorizationGrant; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  issue(grant: AuthorizationGrant): string {
    this.#sweep();
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { grant, expiresAt: this.clock.now() + CODE_TTL_MS });
    return code;
  }

  /** The grant, once: a second redemption, an unknown or an expired code is null. */
  redeem(code: string): AuthorizationGrant | null {
    const entry = this.#codes.get(code);
    this.#codes.delete(code);
    return entry !== undefined && entry.expiresAt > this.clock.now() ? entry.grant : null;
  }

  #sweep(): void {
    const now = this.clock.now();
    for (const [code, entry] of this.#codes) if (entry.expiresAt <= now) this.#codes.delete(code);
  }
}
