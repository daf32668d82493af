// Turns response bytes into output text: decoded as text when the declared charset (UTF-8 when
// none) decodes them cleanly and they hold no NUL, otherwise base64. A body cut at the size cap
// may end mid-character; that partial character is dropped, never turned into a replacement.
import { TextDecoder } from 'node:util';

export interface DecodedBody {
  readonly body: string;
  readonly bodyEncoding: 'text' | 'base64';
}

export function decodeBody(bytes: Buffer, contentType: string | undefined, truncated: boolean): DecodedBody {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: true });
  }
  const isUtf8 = decoder.encoding === 'utf-8';
  const text = decode(decoder, isUtf8 && truncated ? trimPartialUtf8(bytes) : bytes);
  if (text !== undefined && !text.includes('\u0000')) return { body: text, bodyEncoding: 'text' };
  return { body: bytes.toString('base64'), bodyEncoding: 'base64' };
}

function decode(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Drops an incomplete UTF-8 sequence at the very end (at most three bytes). */
function trimPartialUtf8(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
