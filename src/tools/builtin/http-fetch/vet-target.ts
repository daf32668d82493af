// Decides whether one URL may be fetched and, if so, the single address to connect to: scheme,
// credentials, allowlist, then one DNS resolution whose every address must be acceptable. The
// address returned is the only one used, so a resolver that changes its answer later gains nothing.
import type { HostAllowlist } from './create-host-allowlist.js';
import { normalizeHost } from './normalize-host.js';
import type { HostLookup } from './host-lookup.js';
import { parseIpAddress } from './ip-address.js';
import { isRestrictedAddress } from './is-restricted-address.js';
import { untilAborted } from '../../../platform/abort/index.js';

export type TargetRefusal = 'scheme' | 'credentials' | 'not-allowed' | 'restricted' | 'unresolved';

export type VettedTarget =
  | { readonly ok: true; readonly host: string; readonly address: string; readonly family: 4 | 6 }
  | { readonly ok: false; readonly refusal: TargetRefusal };

export async function vetTarget(url: URL, allowlist: HostAllowlist, lookup: HostLookup, signal: AbortSignal): Promise<VettedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, refusal: 'scheme' };
  if (url.username !== '' || url.password !== '') return { ok: false, refusal: 'credentials' };
  const host = normalizeHost(url.hostname);
  if (!allowlist.allowsHost(host)) return { ok: false, refusal: 'not-allowed' };

  const literal = parseIpAddress(host);
  if (literal !== undefined) return { ok: true, host, address: host, family: literal.family }; // listed by IP, so allowed

  let resolved;
  try {
    resolved = await untilAborted(lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, refusal: 'unresolved' };
  }
  const addresses = resolved.map(({ address }) => ({ address, ip: parseIpAddress(address) }));
  if (addresses.length === 0) return { ok: false, refusal: 'unresolved' };
  for (const { ip } of addresses) {
    if (ip === undefined || (isRestrictedAddress(ip) && !allowlist.listsAddress(ip))) return { ok: false, refusal: 'restricted' };
  }
  const [first] = addresses;
  if (first?.ip === undefined) return { ok: false, refusal: 'unresolved' };
  return { ok: true, host, address: first.address.split('%', 1)[0] ?? first.address, family: first.ip.family };
}
