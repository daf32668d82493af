// Strings: optional identifiers and secrets (trimmed, blank means unset), verbatim strings (map
// values such as MCP server env and headers), and closed sets of names (case-insensitive, returned
// in their canonical spelling). Numbers are not silently turned into strings.
import { accept, isBlank, refuse, type Codec } from './codec.js';

/** Trimmed; null or blank is null ("not set"). */
export const optionalTextCodec: Codec<string | null> = {
  display: 'string, optional',
  decode(raw) {
    if (isBlank(raw)) return accept(null);
    return typeof raw === 'string' ? accept(raw.trim()) : refuse('must be a string');
  },
};

/** Exactly as written, empty allowed. */
export const verbatimTextCodec: Codec<string> = {
  display: 'string',
  decode(raw) {
    return typeof raw === 'string' ? accept(raw) : refuse('must be a string');
  },
};

export function enumCodec<const T extends string>(values: readonly T[], options: { readonly nullable: true }): Codec<T | null>;
export function enumCodec<const T extends string>(values: readonly T[]): Codec<T>;
export function enumCodec<const T extends string>(values: readonly T[], { nullable = false } = {}): Codec<T | null> {
  const message = `must be one of ${values.join(', ')}`;
  return {
    display: values.join(' | ') + (nullable ? ', optional' : ''),
    decode(raw) {
      if (nullable && isBlank(raw)) return accept(null);
      if (typeof raw !== 'string') return refuse(message);
      const match = values.find((value) => value.toLowerCase() === raw.trim().toLowerCase());
      return match === undefined ? refuse(message) : accept(match);
    },
  };
}

/** Trimmed and non-empty: names in lists (tools, servers, hosts, issuers). */
export const nameCodec: Codec<string> = {
  display: 'string',
  decode(raw) {
    if (typeof raw !== 'string') return refuse('must be a string');
    return raw.trim() === '' ? refuse('must not be empty') : accept(raw.trim());
  },
};
