// A local OpenID provider on loopback: discovery and JWKS over node:http, RS256 tokens minted in-process.
// Deliberately no login or token endpoint: `mintToken` and `portcullis token` are the only issuers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../platform/clock/index.js';
import { createDevIdpState, DEFAULT_STATE_DIR, readDevIdpState, writeDevIdpState, type DevIdpState } from './dev-idp-state.js';
import { discoveryPath, instanceFor, issuerFor, jwksPath } from './dev-idp-urls.js';
import { mintDevToken, type MintTokenOptions } from './mint-dev-token.js';
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
    respond(request, response, path);
  });
  await listen(server, options.port ?? state.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  state = { ...state, host, port };
  if (persist) await writeDevIdpState(stateDir, state);

  const instance = instanceFor(host, port);
  const issuer = issuerFor(instance, state.tenantId);
  const jwksUri = `${instance.slice(0, -1)}${jwksPath(state.tenantId)}`;

  function respond(request: IncomingMessage, response: ServerResponse, path: string): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'method_not_allowed' });
    if (path === discoveryPath(state.tenantId)) {
      return send(response, 200, {
        issuer,
        jwks_uri: jwksUri,
        response_types_supported: ['token'],
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
    url: instance.slice(0, -1),
    issuer,
    tenantId: state.tenantId,
    clientId: state.clientId,
    instance,
    discoveryUrl: `${instance.slice(0, -1)}${discoveryPath(state.tenantId)}`,
    jwksUri,
    mintToken: (claims, mintOptions = {}) =>
      mintDevToken({ issuer, clientId: state.clientId, signingKey: state.signingKey }, claims, mintOptions, clock.now()),
    async rotateKey() {
      const previous = publicJwk(state.signingKey);
      state = { ...state, signingKey: await generateSigningKey(), retiredKeys: [previous] };
      if (persist) await writeDevIdpState(stateDir, state);
    },
    close: () => close(server),
  };
}

function send(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
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
