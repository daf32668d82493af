// Fetches a URL, following up to five redirects by hand so every hop is vetted afresh (scheme,
// allowlist, DNS) and connected to its own vetted address. Method is kept (GET stays GET, HEAD stays
// HEAD); Authorization is not carried to another origin.
import type { HostAllowlist } from './create-host-allowlist.js';
import type { HostLookup } from './host-lookup.js';
import { httpFetchLimits } from './http-fetch-limits.js';
import { refusalMessage } from './refusal-message.js';
import { sendRequest, type HopResponse } from './send-request.js';
import { vetTarget } from './vet-target.js';

export interface FollowRedirectsOptions {
  readonly url: URL;
  readonly method: 'GET' | 'HEAD';
  readonly headers: Readonly<Record<string, string>>;
  readonly allowlist: HostAllowlist;
  readonly lookup: HostLookup;
  readonly maxBytes: number;
  readonly signal: AbortSignal;
}

export type FetchOutcome =
  | { readonly ok: true; readonly url: URL; readonly response: HopResponse }
  | { readonly ok: false; readonly error: string };

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Refusals come back as outcomes; wire failures and aborts are thrown. */
export async function followRedirects(options: FollowRedirectsOptions): Promise<FetchOutcome> {
  let url = options.url;
  let headers = options.headers;
  for (let hop = 0; ; hop++) {
    const target = await vetTarget(url, options.allowlist, options.lookup, options.signal);
    if (!target.ok) return { ok: false, error: refusalMessage(target.refusal, hop === 0 ? url.hostname : undefined) };
    const response = await sendRequest({
      url,
      method: options.method,
      headers,
      host: target.host,
      address: target.address,
      family: target.family,
      maxBytes: options.maxBytes,
      signal: options.signal,
    });
    const location = response.headers.location;
    if (!redirectStatuses.has(response.status) || location === undefined) return { ok: true, url, response };
    if (hop >= httpFetchLimits.maxRedirects) return { ok: false, error: `Too many redirects (more than ${httpFetchLimits.maxRedirects}).` };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { ok: false, error: 'Redirect refused: the server sent an invalid Location.' };
    }
    if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'authorization'));
    url = next;
  }
}
