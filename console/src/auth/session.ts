// Who the console acts as: nobody in particular (anonymous Development mode), or the holder of a
// bearer token obtained by OpenID Connect sign-in or pasted by hand. The token is kept in memory and
// in this tab's sessionStorage only; it is never put in a URL and never logged.
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleAuth, ConsoleConfig } from './console-config';
import { readClaims, type TokenClaims } from './jwt-claims';
import type { OidcSignIn } from './oidc';

export interface Session {
  readonly auth: ConsoleAuth;
  /** null in anonymous mode, and when signed out. */
  readonly token: string | null;
  readonly via: 'anonymous' | 'oidc' | 'pasted' | null;
  readonly claims: TokenClaims | null;
  /** Why the user is looking at the sign-in page again, if there is a reason to say. */
  readonly notice: string | null;
}

const PASTED_KEY = 'portcullis.console.pastedToken';
let session: Session = { auth: { mode: 'anonymous' }, token: null, via: null, claims: null, notice: null };
let oidc: OidcSignIn | null = null;
const listeners = new Set<(session: Session) => void>();

function set(next: Session): void {
  session = next;
  for (const listener of listeners) listener(session);
}

function signedIn(token: string, via: 'oidc' | 'pasted'): Session {
  return { auth: session.auth, token, via, claims: readClaims(token), notice: null };
}

export function currentToken(): string | null {
  return session.token;
}

export function isSignedIn(value: Session): boolean {
  return value.auth.mode === 'anonymous' || value.token !== null;
}

export function useSession(): Session {
  const [value, setValue] = useState(session);
  useEffect(() => {
    listeners.add(setValue);
    setValue(session);
    return () => void listeners.delete(setValue);
  }, []);
  return value;
}

export async function startSession(config: ConsoleConfig): Promise<void> {
  if (config.auth.mode === 'anonymous') {
    set({ auth: config.auth, token: null, via: 'anonymous', claims: null, notice: null });
    return;
  }
  set({ ...session, auth: config.auth });
  const { createOidcSignIn, isSignInCallback } = await import('./oidc');
  oidc = createOidcSignIn(config.auth);
  if (isSignInCallback(window.location.hash)) {
    try {
      const { token, returnTo } = await oidc.complete();
      window.history.replaceState(null, '', `${window.location.pathname}${returnTo}`);
      set(signedIn(token, 'oidc'));
    } catch {
      window.history.replaceState(null, '', `${window.location.pathname}#/approvals`);
      set({ ...session, notice: 'The sign-in did not complete. Try again.' });
    }
    return;
  }
  const token = await oidc.current();
  if (token !== null) return set(signedIn(token, 'oidc'));
  const pasted = window.sessionStorage.getItem(PASTED_KEY);
  if (pasted !== null && usable(pasted)) return set(signedIn(pasted, 'pasted'));
  window.sessionStorage.removeItem(PASTED_KEY);
}

export async function beginSignIn(): Promise<void> {
  await oidc?.begin(window.location.hash.startsWith('#/') ? window.location.hash : '#/approvals');
}

/** Uses a token pasted by hand; returns the reason it cannot be used, or null. */
export function acceptPastedToken(text: string): string | null {
  const token = text.trim().replace(/^Bearer\s+/i, '');
  const claims = readClaims(token);
  if (claims === null) return 'That is not a JWT (three base64url parts separated by dots).';
  if (claims.expiresAt !== null && claims.expiresAt <= Date.now()) return 'That token has expired.';
  window.sessionStorage.setItem(PASTED_KEY, token);
  set(signedIn(token, 'pasted'));
  return null;
}

export async function signOut(notice: string | null = null): Promise<void> {
  window.sessionStorage.removeItem(PASTED_KEY);
  await oidc?.signOut();
  set({ auth: session.auth, token: null, via: null, claims: null, notice });
}

function usable(token: string): boolean {
  const claims = readClaims(token);
  return claims !== null && (claims.expiresAt === null || claims.expiresAt > Date.now());
}
