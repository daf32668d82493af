// `Tools:HttpFetch:AllowedHosts` (and `Webhooks:AllowedHosts`) as a lookup: host names compared case-insensitively in their URL
// (punycode) form, IP literals compared by value. No wildcards, no ports: an entry is one host.
import { parseIpAddress, sameIpAddress, type IpAddress } from './ip-address.js';
import { normalizeHost } from './normalize-host.js';

export interface HostAllowlist {
  readonly isEmpty: boolean;
  /** True when the URL host (a name, or an IP literal) is listed. */
  allowsHost(host: string): boolean;
  /** True when this exact address is listed as an IP literal. */
  listsAddress(address: IpAddress): boolean;
}

/** Throws on an entry that is not a bare host name or IP literal, so a typo fails at start-up. */
export function createHostAllowlist(entries: readonly string[], keyName = 'Tools:HttpFetch:AllowedHosts'): HostAllowlist {
  const names = new Set<string>();
  const addresses: IpAddress[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    const address = parseIpAddress(trimmed);
    if (address !== undefined) {
      addresses.push(address);
      continue;
    }
    let hostname: string;
    try {
      if (trimmed.includes(':')) throw new TypeError('ports and schemes are not part of a host');
      const url = new URL(`http://${trimmed}/`);
      if (url.host !== url.hostname || url.username !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
        throw new TypeError('not a bare host');
      }
      hostname = url.hostname;
      if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(hostname) && parseIpAddress(hostname) === undefined) {
        throw new TypeError('not a host name'); // wildcards and other oddities
      }
    } catch {
      throw new TypeError(`${keyName} entry "${entry}" is not a host name or IP address.`);
    }
    const ip = parseIpAddress(hostname);
    if (ip !== undefined) addresses.push(ip); // an IPv4 spelling such as 0x7f.1, canonicalised by URL
    else names.add(normalizeHost(hostname));
  }

  const listsAddress = (address: IpAddress): boolean => addresses.some((listed) => sameIpAddress(listed, address));
  return {
    isEmpty: names.size === 0 && addresses.length === 0,
    listsAddress,
    allowsHost(host) {
      const normalized = normalizeHost(host);
      const ip = parseIpAddress(normalized);
      return ip === undefined ? names.has(normalized) : listsAddress(ip);
    },
  };
}
