// Reads an OAuth 2.0 authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636) as the dev IdP
// accepts it: response_type code, its own client id, an http(s) redirect URI on loopback, an S256
// challenge. Anything else is refused on the spot (never redirected: a bad redirect URI must not be
// followed). The sign-in form re-submits these same fields, so the POST is checked by the same code.

export interface AuthorizationRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string | null;
  readonly scope: string;
  readonly nonce: string | null;
  readonly codeChallenge: string;
  readonly responseMode: 'query' | 'fragment';
}

export type AuthorizationRequestResult = { ok: true; request: AuthorizationRequest } | { ok: false; error: string };

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const MAX_PARAM_LENGTH = 2048;

export function readAuthorizationRequest(params: URLSearchParams, expectedClientId: string): AuthorizationRequestResult {
  const get = (name: string): string | null => params.get(name);
  for (const [name, value] of params) if (value.length > MAX_PARAM_LENGTH) return refuse(`${name} is too long`);
  if (get('response_type') !== 'code') return refuse('response_type must be code');
  if (get('client_id') !== expectedClientId) return refuse('client_id is not this provider’s client');
  const redirectUri = get('redirect_uri') ?? '';
  if (!isLoopbackRedirect(redirectUri)) return refuse('redirect_uri must be an http(s) URL on a loopback host');
  const codeChallenge = get('code_challenge') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) return refuse('code_challenge is required (PKCE, S256)');
  if (get('code_challenge_method') !== 'S256') return refuse('code_challenge_method must be S256');
  const responseMode = get('response_mode') ?? 'query';
  if (responseMode !== 'query' && responseMode !== 'fragment') return refuse('response_mode must be query or fragment');
  return {
    ok: true,
    request: { clientId: expectedClientId, redirectUri, state: get('state'), scope: get('scope') ?? 'openid', nonce: get('nonce'), codeChallenge, responseMode },
  };
}

/** The URL the browser is sent back to with the code (and the state, when the client sent one). */
export function redirectWithCode(request: AuthorizationRequest, code: string): string {
  const answer = new URLSearchParams({ code });
  if (request.state !== null) answer.set('state', request.state);
  const url = new URL(request.redirectUri);
  if (request.responseMode === 'fragment') url.hash = answer.toString();
  else for (const [name, value] of answer) url.searchParams.set(name, value);
  return url.toString();
}

/** The request's fields as the hidden inputs of the sign-in form carry them. */
export function authorizationFields(request: AuthorizationRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    response_mode: request.responseMode,
    ...(request.state === null ? {} : { state: request.state }),
    ...(request.nonce === null ? {} : { nonce: request.nonce }),
  };
}

function isLoopbackRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

function refuse(error: string): AuthorizationRequestResult {
  return { ok: false, error };
}
