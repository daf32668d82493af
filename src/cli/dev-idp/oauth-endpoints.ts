// The dev IdP's authorization-code flow (OpenID Connect with PKCE), so a browser client such as the
// web console can sign in offline: GET authorize shows the "sign in as" form, POST authorize issues a
// one-time code and sends the browser back, POST token redeems the code (PKCE verified) for an access
// token (audience api://{clientId}) and an ID token. Development only: there is no password.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthorizationCodes } from './authorization-codes.js';
import { authorizationFields, readAuthorizationRequest, redirectWithCode } from './authorization-request.js';
import { errorPage, pageSecurityPolicy, signInPage } from './sign-in-page.js';

export interface OAuthEndpointsOptions {
  readonly clientId: () => string;
  readonly codes: AuthorizationCodes;
  /** Signs the access token (aud api://{clientId}) and the ID token (aud {clientId}) for a grant. */
  readonly mint: (claims: Record<string, unknown>) => Promise<string>;
}

export const TOKEN_TTL_SECONDS = 3600;
const MAX_FORM_BYTES = 16 * 1024;
const SUBJECT = /^[A-Za-z0-9._:@-]{1,128}$/;
const ROLE = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_ROLES = 32;

export function createOAuthEndpoints(options: OAuthEndpointsOptions) {
  async function authorize(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const params = request.method === 'POST' ? await readForm(request) : url.searchParams;
    if (params === null) return sendHtml(response, 413, errorPage('The form is too large.'), null);
    const read = readAuthorizationRequest(params, options.clientId());
    if (!read.ok) return sendHtml(response, 400, errorPage(`The authorization request is invalid: ${read.error}.`), null);
    const authRequest = read.request;
    const origin = new URL(authRequest.redirectUri).origin;
    const form = (error?: string) =>
      signInPage({ action: url.pathname, fields: authorizationFields(authRequest), clientId: authRequest.clientId, ...(error === undefined ? {} : { error }) });
    if (request.method !== 'POST') return sendHtml(response, 200, form(), origin);

    const subject = (params.get('sub') ?? '').trim();
    const roles = (params.get('roles') ?? '').split(/[\s,]+/).filter((role) => role !== '');
    if (!SUBJECT.test(subject)) return sendHtml(response, 400, form('The subject must be 1 to 128 letters, digits or . _ : @ -.'), origin);
    if (roles.length > MAX_ROLES || !roles.every((role) => ROLE.test(role))) {
      return sendHtml(response, 400, form(`Roles are at most ${MAX_ROLES} names of letters, digits or . _ : -.`), origin);
    }
    const code = options.codes.issue({
      clientId: authRequest.clientId,
      redirectUri: authRequest.redirectUri,
      codeChallenge: authRequest.codeChallenge,
      scope: authRequest.scope,
      nonce: authRequest.nonce,
      subject,
      roles: [...new Set(roles)],
    });
    response.writeHead(302, { location: redirectWithCode(authRequest, code), 'cache-control': 'no-store', 'content-security-policy': pageSecurityPolicy(origin) });
    response.end();
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const params = await readForm(request);
    if (params === null) return tokenError(response, 'invalid_request', 'The request body is too large.');
    if (params.get('grant_type') !== 'authorization_code') return tokenError(response, 'unsupported_grant_type', 'Only authorization_code is supported.');
    const grant = options.codes.redeem(params.get('code') ?? '');
    if (grant === null) return tokenError(response, 'invalid_grant', 'The code is unknown, used or expired.');
    if (params.get('client_id') !== grant.clientId || params.get('redirect_uri') !== grant.redirectUri) {
      return tokenError(response, 'invalid_grant', 'client_id or redirect_uri differ from the authorization request.');
    }
    const verifier = params.get('code_verifier') ?? '';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge) {
      return tokenError(response, 'invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    }
    const identity = { sub: grant.subject, ...(grant.roles.length === 0 ? {} : { roles: grant.roles }) };
    const accessToken = await options.mint(identity);
    const idToken = await options.mint({ ...identity, aud: grant.clientId, ...(grant.nonce === null ? {} : { nonce: grant.nonce }) });
    sendJson(response, 200, { access_token: accessToken, id_token: idToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: grant.scope });
  }

  return { authorize, token };
}

/** JSON with the headers every dev IdP document carries; readable cross-origin (browser clients). */
export function sendJson(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  });
  response.end(text);
}

function tokenError(response: ServerResponse, error: string, description: string): void {
  sendJson(response, 400, { error, error_description: description });
}

function sendHtml(response: ServerResponse, status: number, html: string, redirectOrigin: string | null): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': pageSecurityPolicy(redirectOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  response.end(html);
}

/** An application/x-www-form-urlencoded body, or null when it is over the cap. */
async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
