// Absolute http(s) URLs. Whether plain http is acceptable is a rule about other keys (for example
// RequireHttpsMetadata), so it is not decided here.
import { accept, isBlank, refuse, type Codec } from './codec.js';

const MESSAGE = 'must be an absolute http:// or https:// URL';

function readHttpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!URL.canParse(text)) return null;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:' ? text : null;
}

/** A base URL others append to (the identity Instance): normalised to end with `/`. */
export const baseUrlCodec: Codec<string> = {
  display: 'URL',
  decode(raw) {
    const url = readHttpUrl(raw);
    if (url === null) return refuse(MESSAGE);
    return accept(url.endsWith('/') ? url : `${url}/`);
  },
};

export const optionalUrlCodec: Codec<string | null> = {
  display: 'URL, optional',
  decode(raw) {
    if (isBlank(raw)) return accept(null);
    const url = readHttpUrl(raw);
    return url === null ? refuse(MESSAGE) : accept(url);
  },
};
