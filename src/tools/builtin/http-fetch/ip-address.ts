// Parses an IP literal into its bytes (4 for IPv4, 16 for IPv6), so addresses compare by value:
// `::1` and `0:0:0:0:0:0:0:1` are the same address. A zone (`%eth0`) is ignored.
import { isIP } from 'node:net';

export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

export function parseIpAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const address = bare.split('%', 1)[0] ?? '';
  const family = isIP(address);
  if (family === 4) return { family, bytes: Uint8Array.from(address.split('.').map(Number)) };
  if (family === 6) return { family, bytes: parseIpv6(address) };
  return undefined;
}

/** Same family and same bytes. */
export function sameIpAddress(a: IpAddress, b: IpAddress): boolean {
  return a.family === b.family && a.bytes.every((byte, i) => byte === b.bytes[i]);
}

/** `net.isIP` has already accepted the text, so only well-formed input reaches here. */
function parseIpv6(address: string): Uint8Array {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = text.split('::');
  const front = groups(head);
  const back = rest === undefined ? [] : groups(rest);
  const zeros = new Array<number>(8 - front.length - back.length - tail.length).fill(0);
  const words = [...front, ...zeros, ...back, ...tail];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}
