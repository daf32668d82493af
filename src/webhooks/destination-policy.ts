// Where a webhook may be delivered (DESIGN.md §14), with http_fetch's vetting: AppConfig:Webhooks:
// AllowedHosts (empty = none) is checked when a subscription is created and again at every delivery;
// at delivery the name is resolved once and every address must be public unless listed by IP, and
// the address checked is the one the request connects to (no DNS rebinding). Redirects are never
// followed (the attempt's answer is the 3xx).
import { createHostAllowlist, systemLookup, vetTarget, type HostAllowlist, type HostLookup, type VettedTarget } from '../tools/builtin/http-fetch/index.js';

export class DestinationPolicy {
  readonly #allowlist: HostAllowlist;
  readonly #lookup: HostLookup;

  constructor(allowedHosts: readonly string[], lookup: HostLookup = systemLookup) {
    this.#allowlist = createHostAllowlist(allowedHosts, 'Webhooks:AllowedHosts');
    this.#lookup = lookup;
  }

  /** Why `url` cannot be a webhook's destination (caller-facing), or null when it can. */
  refusal(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'The webhook URL must be an absolute http or https URL.';
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'The webhook URL must be an absolute http or https URL.';
    if (parsed.username !== '' || parsed.password !== '') return 'The webhook URL must not carry a user name or password.';
    if (!this.#allowlist.allowsHost(parsed.hostname)) return `The host "${parsed.hostname}" is not in AppConfig:Webhooks:AllowedHosts.`;
    return null;
  }

  /** At delivery: the one address to connect to, or why not. */
  vet(url: URL, signal: AbortSignal): Promise<VettedTarget> {
    return vetTarget(url, this.#allowlist, this.#lookup, signal);
  }
}
