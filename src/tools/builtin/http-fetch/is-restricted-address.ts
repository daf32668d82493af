// Which addresses `http_fetch` refuses unless the host lists them by IP: anything that is not a
// public unicast destination (private, loopback, link-local, CGNAT, unspecified, multicast,
// reserved, documentation), judged through IPv4-mapped, IPv4-compatible, NAT64 and 6to4 wrappers.
import { parseIpAddress, type IpAddress } from './ip-address.js';

type Range = readonly [prefix: readonly number[], bits: number];

const restrictedV4: readonly Range[] = [
  [[0], 8], // "this network", 0.0.0.0
  [[10], 8],
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 168], 16],
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

const restrictedV6: readonly Range[] = [
  [[], 96], // ::/96 — unspecified, loopback, IPv4-compatible (deprecated)
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo: hides an arbitrary IPv4 address
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
];

/** IPv6 forms that carry an IPv4 address: judged by that address. */
const embeddingV6: readonly (readonly [range: Range, offset: number])[] = [
  [[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96], 12], // IPv4-mapped
  [[[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96], 12], // NAT64
  [[[0x20, 0x02], 16], 2], // 6to4
];

function inRange(bytes: Uint8Array, [prefix, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const i = bit / 8;
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

export function isRestrictedAddress(address: IpAddress | string): boolean {
  const ip = typeof address === 'string' ? parseIpAddress(address) : address;
  if (ip === undefined) return true;
  if (ip.family === 4) return restrictedV4.some((range) => inRange(ip.bytes, range));
  for (const [range, offset] of embeddingV6) {
    if (inRange(ip.bytes, range)) return isRestrictedAddress({ family: 4, bytes: ip.bytes.slice(offset, offset + 4) });
  }
  return restrictedV6.some((range) => inRange(ip.bytes, range));
}
