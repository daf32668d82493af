// Fetches one identity-metadata document (discovery or JWKS) as JSON: no redirects, a timeout,
// 200 only, and the https rule. Every failure is an IdentityProviderUnreachable naming what went wrong.
import { deadlineSignal } from '../abort/index.js';
import { IdentityProviderUnreachable } from './auth-failure.js';

export const METADATA_FETCH_TIMEOUT_MS = 5_000;

export interface MetadataFetchOptions {
  readonly fetch: typeof fetch;
  readonly requireHttps: boolean;
  readonly signal: AbortSignal;
  /** How long the request may take; METADATA_FETCH_TIMEOUT_MS unless a test says otherwise. */
  readonly timeoutMs?: number;
}

/** Refuses any scheme but https (or http too when https is not required). */
export function assertMetadataUrl(url: URL, what: string, requireHttps: boolean): void {
  const allowed = requireHttps ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) {
    throw new IdentityProviderUnreachable(`${what} URL ${url.origin} is not ${requireHttps ? 'https (RequireHttpsMetadata is true)' : 'http(s)'}`);
  }
}

export async function fetchMetadataJson(url: URL, what: string, options: MetadataFetchOptions): Promise<unknown> {
  assertMetadataUrl(url, what, options.requireHttps);
  // The deadline covers the body too: a provider that sends headers and then stalls is unreachable.
  const deadline = deadlineSignal(options.signal, options.timeoutMs ?? METADATA_FETCH_TIMEOUT_MS);
  try {
    return await fetchWithin(url, what, options.fetch, deadline.signal);
  } finally {
    deadline.clear();
  }
}

async function fetchWithin(url: URL, what: string, fetchImpl: typeof fetch, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'GET',
      // A redirect could downgrade to http or leave the configured authority: not followed.
      redirect: 'manual',
      headers: { accept: 'application/json' },
      signal,
    });
  } catch (error) {
    throw new IdentityProviderUnreachable(`${what} unreachable at ${url.href}: ${describe(error)}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new IdentityProviderUnreachable(`${what} at ${url.href} answered HTTP ${response.status}`);
  }
  try {
    return (await response.json());
  } catch (error) {
    if (signal.aborted) throw new IdentityProviderUnreachable(`${what} at ${url.href} did not finish answering: ${describe(error)}`);
    throw new IdentityProviderUnreachable(`${what} at ${url.href} is not JSON`);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
