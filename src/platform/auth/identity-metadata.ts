// The IdP's discovery (issuer, jwks_uri) and signing keys, judged by the injected clock: stale keys are
// refetched, an unknown kid at most once per cooldown; keys come from the discovered JWKS only.
import { createLocalJWKSet, errors } from '../vendor/jose.js';
import type { CryptoKey, JSONWebKeySet, JWTHeaderParameters, LocalJWKSet } from 'jose';
import type { Clock } from '../clock/index.js';
import { AuthFailure, IdentityProviderUnreachable } from './auth-failure.js';
import { assertMetadataUrl, fetchMetadataJson } from './fetch-metadata-json.js';

/** Keys older than this are refetched before use (jose's remote-JWKS default). */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
/** After a failed load, requests fail fast for this long (capped by the cooldown) instead of hammering the IdP. */
export const FAILED_LOAD_RETRY_MS = 5_000;

export interface SigningMetadata {
  readonly issuer: string;
  readonly resolveKey: (header: JWTHeaderParameters) => Promise<CryptoKey>;
}

export interface IdentityMetadataOptions {
  readonly authority: string;
  readonly requireHttps: boolean;
  readonly refreshCooldownMs: number;
  readonly clock: Clock;
  readonly fetch: typeof fetch;
}

interface Discovery {
  readonly issuer: string;
  readonly jwksUri: URL;
}

/** `{instance}{tenantId}/v2.0`, joined by exactly one slash whatever the configured spelling. */
export function authorityFor(instance: string, tenantId: string): string {
  return `${instance.replace(/\/+$/, '')}/${tenantId.replace(/^\/+|\/+$/g, '')}/v2.0`;
}

export class IdentityMetadata {
  readonly #options: IdentityMetadataOptions;
  readonly #abort = new AbortController();
  readonly #failureRetryMs: number;
  #discovery: Discovery | undefined;
  #discoveryAttemptAt = -Infinity;
  #pendingDiscovery: Promise<Discovery> | undefined;
  #keys: LocalJWKSet | undefined;
  #keysFetchedAt = -Infinity;
  #keysAttemptAt = -Infinity;
  #pendingKeys: Promise<void> | undefined;
  #lastFailure = 'identity metadata not loaded';

  constructor(options: IdentityMetadataOptions) {
    this.#options = options;
    this.#failureRetryMs = Math.min(FAILED_LOAD_RETRY_MS, options.refreshCooldownMs);
  }

  /** Discovery plus a usable key set; throws IdentityProviderUnreachable when the provider cannot be loaded. */
  async load(): Promise<SigningMetadata> {
    if (this.#abort.signal.aborted) throw new IdentityProviderUnreachable('authenticator closed');
    const discovery = await this.#discover();
    const now = this.#options.clock.now();
    const stale = this.#keys === undefined || now - this.#keysFetchedAt >= JWKS_MAX_AGE_MS;
    if (stale && (this.#pendingKeys !== undefined || now - this.#keysAttemptAt >= this.#failureRetryMs)) {
      try {
        await this.#refreshKeys(discovery);
      } catch (error) {
        // Stale keys beat no keys: a failed refresh keeps the previous set in service.
        if (this.#keys === undefined) throw error;
      }
    }
    if (this.#keys === undefined) throw new IdentityProviderUnreachable(this.#lastFailure);
    return { issuer: discovery.issuer, resolveKey: (header) => this.#resolveKey(discovery, header) };
  }

  close(): void {
    this.#abort.abort();
  }

  async #resolveKey(discovery: Discovery, header: JWTHeaderParameters): Promise<CryptoKey> {
    const keys = this.#keys;
    if (keys === undefined) throw new IdentityProviderUnreachable(this.#lastFailure);
    try {
      return await keys(header);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
    }
    // Unknown kid: one refetch per cooldown, shared by every request that hits it meanwhile.
    if (this.#pendingKeys === undefined) {
      if (this.#options.clock.now() - this.#keysAttemptAt < this.#options.refreshCooldownMs) {
        throw new AuthFailure('no signing key matches the token (JWKS refresh cooling down)', 'unknown_key');
      }
    }
    await this.#refreshKeys(discovery);
    const refreshed = this.#keys;
    if (refreshed === undefined) throw new IdentityProviderUnreachable(this.#lastFailure);
    return refreshed(header);
  }

  #discover(): Promise<Discovery> {
    if (this.#discovery !== undefined) return Promise.resolve(this.#discovery);
    if (this.#pendingDiscovery !== undefined) return this.#pendingDiscovery;
    if (this.#options.clock.now() - this.#discoveryAttemptAt < this.#failureRetryMs) {
      return Promise.reject(new IdentityProviderUnreachable(this.#lastFailure));
    }
    this.#discoveryAttemptAt = this.#options.clock.now();
    const pending = this.#fetchDiscovery()
      .then(
        (discovery) => (this.#discovery = discovery),
        (error: unknown) => {
          this.#lastFailure = failureReason(error);
          throw error;
        },
      )
      .finally(() => (this.#pendingDiscovery = undefined));
    this.#pendingDiscovery = pending;
    return pending;
  }

  async #fetchDiscovery(): Promise<Discovery> {
    let url: URL;
    try {
      url = new URL(`${this.#options.authority}/.well-known/openid-configuration`);
    } catch {
      throw new IdentityProviderUnreachable(`authority ${this.#options.authority} is not a URL`);
    }
    const document = await fetchMetadataJson(url, 'OpenID discovery document', this.#fetchOptions());
    if (typeof document !== 'object' || document === null) throw new IdentityProviderUnreachable('discovery document is not an object');
    const { issuer, jwks_uri: jwksUri } = document as Record<string, unknown>;
    if (typeof issuer !== 'string' || issuer === '') throw new IdentityProviderUnreachable('discovery document has no issuer');
    if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) throw new IdentityProviderUnreachable('discovery document has no valid jwks_uri');
    const parsed = new URL(jwksUri);
    assertMetadataUrl(parsed, 'JWKS', this.#options.requireHttps);
    return { issuer, jwksUri: parsed };
  }

  #refreshKeys(discovery: Discovery): Promise<void> {
    if (this.#pendingKeys !== undefined) return this.#pendingKeys;
    this.#keysAttemptAt = this.#options.clock.now();
    const pending = this.#fetchKeys(discovery)
      .then(
        (keys) => {
          this.#keys = keys;
          this.#keysFetchedAt = this.#keysAttemptAt;
        },
        (error: unknown) => {
          this.#lastFailure = failureReason(error);
          throw error;
        },
      )
      .finally(() => (this.#pendingKeys = undefined));
    this.#pendingKeys = pending;
    return pending;
  }

  async #fetchKeys(discovery: Discovery): Promise<LocalJWKSet> {
    const document = await fetchMetadataJson(discovery.jwksUri, 'JWKS', this.#fetchOptions());
    try {
      return createLocalJWKSet(document as JSONWebKeySet);
    } catch {
      throw new IdentityProviderUnreachable('JWKS document is not a valid JSON Web Key Set');
    }
  }

  #fetchOptions(): { fetch: typeof fetch; requireHttps: boolean; signal: AbortSignal } {
    return { fetch: this.#options.fetch, requireHttps: this.#options.requireHttps, signal: this.#abort.signal };
  }
}

function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
