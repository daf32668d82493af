// A local OpenID provider on loopback: discovery and JWKS over node:http, RS256 tokens minted in-process
// (`mintToken`, `portcullis token`) or through the authorization-code flow with PKCE behind a "sign in
// as subject/roles" form (oauth-endpoints.ts), so a browser client can sign in offline.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../platform/clock/index.js';
import { createDevIdpState, DEFAULT_STATE_DIR, readDevIdpState, writeDevIdpState, type DevIdpState } from './dev-idp-state.js';
import { AuthorizationCodes } from './authorization-codes.js';
import { authorizePath, discoveryPath, instanceFor, issuerFor, jwksPath, tokenPath } from './dev-idp-urls.js';
import { mintDevToken, type MintTokenOptions } from './mint-dev-token.js';
import { createOAuthEndpoints, sendJson as send, TOKEN_TTL_SECONDS } from './oauth-endpoints.js';
import { DEV_IDP_ALGORITHM, generateSigningKey, publicJwk } from './signing-key.js';

export interface DevIdp {
  /** Origin, no trailing slash: `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly issuer: string;
  readonly tenantId: string;
  readonly clientId: string;
  /** `Auth:Instance` for the service: `http://127.0.0.1:PORT/`. */
  readonly instance: string;
  readonly discoveryUrl: string;
  readonly jwksUri: string;
  mintToken(claims: Record<string, unknown>, options?: MintTokenOptions): Promise<string>;
  /** New signing key; the previous one stays published (one generation) so its tokens still validate. */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
}

export interface StartDevIdpOptions {
  /** Default: the port in the state file, else 0 (any free port, then remembered). */
  readonly port?: number;
  readonly host?: string;
  /** Directory holding `dev-idp.json`; default `<cwd>/.portcullis`. */
  readonly stateDir?: string;
  /** false: neither read nor write a state file (fresh ids and key every start). Default true. */
  readonly persist?: boolean;
  /** Time source for minted tokens' iat/nbf/exp. */
  readonly clock?: Clock;
  /** Called for every request the server receives (tests count JWKS fetches with it). */
  readonly onRequest?: (request: { readonly method: string; readonly path: string }) => void;
}

export async function startDevIdp(options: StartDevIdpOptions = {}): Promise<DevIdp> {
  const persist = options.persist ?? true;
  const stateDir = options.stateDir ?? join(process.cwd(), DEFAULT_STATE_DIR);
  const clock = options.clock ?? systemClock;
  const stored = persist ? await readDevIdpState(stateDir) : null;
  const host = options.host ?? stored?.host ?? '127.0.0.1';
  let state: DevIdpState = stored ?? (await createDevIdpState(host));

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    options.onRequest?.({ method: request.method ?? 'GET', path });
    respond(request, response, path).catch(() => {
      if (!response.headersSent) send(response, 500, { error: 'server_error' });
      else response.destroy();
    });
  });
  await listen(server, options.port ?? state.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  state = { ...state, host, port };
  if (persist) await writeDevIdpState(stateDir, state);

  const instance = instanceFor(host, port);
  const issuer = issuerFor(instance, state.tenantId);
  const origin = instance.slice(0, -1);
  const jwksUri = `${origin}${jwksPath(state.tenantId)}`;
  const mint = (claims: Record<string, unknown>, mintOptions: MintTokenOptions = {}): Promise<string> =>
    mintDevToken({ issuer, clientId: state.clientId, signingKey: state.signingKey }, claims, mintOptions, clock.now());
  const oauth = createOAuthEndpoints({
    clientId: () => state.clientId,
    codes: new AuthorizationCodes(clock),
    mint: (claims) => mint(claims, { ttlSeconds: TOKEN_TTL_SECONDS }),
  });

  async function respond(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method === 'OPTIONS') return preflight(response);
    if (path === authorizePath(state.tenantId) && (request.method === 'GET' || request.method === 'POST')) {
      return oauth.authorize(request, response, new URL(request.url ?? '/', origin));
    }
    if (path === tokenPath(state.tenantId) && request.method === 'POST') return oauth.token(request, response);
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'method_not_allowed' });
    if (path === discoveryPath(state.tenantId)) {
      return send(response, 200, {
        issuer,
        authorization_endpoint: `${origin}${authorizePath(state.tenantId)}`,
        token_endpoint: `${origin}${tokenPath(state.tenantId)}`,
        jwks_uri: jwksUri,
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'fragment'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['openid', 'profile'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [DEV_IDP_ALGORITHM],
      });
    }
    if (path === jwksPath(state.tenantId)) {
      return send(response, 200, { keys: [publicJwk(state.signingKey), ...state.retiredKeys] });
    }
    send(response, 404, { error: 'not_found' });
  }

  return {
    url: origin,
    issuer,
    tenantId: state.tenantId,
    clientId: state.clientId,
    instance,
    discoveryUrl: `${origin}${discoveryPath(state.tenantId)}`,
    jwksUri,
    mintToken: (claims, mintOptions = {}) => mint(claims, mintOptions),
    async rotateKey() {
      const previous = publicJwk(state.signingKey);
      state = { ...state, signingKey: await generateSigningKey(), retiredKeys: [previous] };
      if (persist) await writeDevIdpState(stateDir, state);
    },
    close: () => close(server),
  };
}

/** Browser clients fetch discovery, keys and tokens cross-origin; none of them needs credentials. */
function preflight(response: ServerResponse): void {
  response.writeHead(204, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': 'content-type, accept',
    'access-control-max-age': '600',
  });
  response.end();
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
