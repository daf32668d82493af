// Where a webhook may be delivered (DESIGN.md §14), with http_fetch's vetting: AppConfig:Webhooks:
// AllowedHosts (empty = none) is checked when a subscription is created and again at every delivery;
// the name is resolved once and every address must be public unless listed by IP, and at delivery
// the address checked is the one the request connects to (no DNS rebinding). Redirects are never
// followed (the attempt's answer is the 3xx). At create the URL must be a plain absolute http(s) URL
// (no credentials, whitespace, control characters or backslashes: what parsers disagree on) and is
// kept in its normalised form; a name that resolves to an address never delivered to is refused then,
// not found out by every attempt failing (decision 3523).
import { createHostAllowlist, systemLookup, vetTarget, type HostAllowlist, type HostLookup, type VettedTarget } from '../tools/builtin/http-fetch/index.js';

/** The longest destination kept (the create schema's bound on what is typed holds for the normalised form too). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** How long a create waits for the destination's name to resolve; past it the name is judged at each attempt. */
const CREATE_LOOKUP_TIMEOUT_MS = 5_000;
/** Whitespace (Unicode's too), C0 and C1 controls, DEL, backslashes: the URL parser drops or rewrites them silently. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\\]/u;

export type DestinationAdmission = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

const NOT_HTTP = 'The webhook URL must be an absolute http or https URL.';

export class DestinationPolicy {
  readonly #allowlist: HostAllowlist;
  readonly #lookup: HostLookup;
  readonly #lookupTimeoutMs: number;

  constructor(allowedHosts: readonly string[], lookup: HostLookup = systemLookup, lookupTimeoutMs = CREATE_LOOKUP_TIMEOUT_MS) {
    this.#allowlist = createHostAllowlist(allowedHosts, 'Webhooks:AllowedHosts');
    this.#lookup = lookup;
    this.#lookupTimeoutMs = lookupTimeoutMs;
  }

  /** At create: the normalised URL to keep, or why `url` cannot be a webhook's destination (caller-facing). */
  async admit(url: string): Promise<DestinationAdmission> {
    if (UNSAFE_CHARACTERS.test(url)) return refused('The webhook URL must not contain whitespace, control characters or backslashes.');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return refused(NOT_HTTP);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return refused(NOT_HTTP);
    if (parsed.username !== '' || parsed.password !== '') return refused('The webhook URL must not carry a user name or password.');
    if (!this.#allowlist.allowsHost(parsed.hostname)) return refused(`The host "${parsed.hostname}" is not in AppConfig:Webhooks:AllowedHosts.`);
    if (parsed.href.length > MAX_WEBHOOK_URL_LENGTH) return refused(`The webhook URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters once normalised.`);
    if ((await this.#vetAtCreate(parsed)) === 'restricted') {
      return refused(
        `The host "${parsed.hostname}" resolves to a private, loopback or link-local address, which is never delivered to unless AppConfig:Webhooks:AllowedHosts lists that address by IP.`,
      );
    }
    return { ok: true, url: parsed.href };
  }

  /** At delivery: the one address to connect to, or why not. */
  vet(url: URL, signal: AbortSignal): Promise<VettedTarget> {
    return vetTarget(url, this.#allowlist, this.#lookup, signal);
  }

  /**
   * The create's one resolution: `restricted` when an address it gave is never delivered to. A name
   * that does not resolve now (or not in time) may later: each attempt judges it again.
   */
  async #vetAtCreate(url: URL): Promise<'restricted' | 'deliverable'> {
    try {
      const vetted = await vetTarget(url, this.#allowlist, this.#lookup, AbortSignal.timeout(this.#lookupTimeoutMs));
      return !vetted.ok && vetted.refusal === 'restricted' ? 'restricted' : 'deliverable';
    } catch {
      return 'deliverable';
    }
  }
}

const refused = (reason: string): DestinationAdmission => ({ ok: false, reason });
