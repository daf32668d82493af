// Durations: positive .NET TimeSpan strings, delivered in milliseconds (fields get an `Ms` suffix).
import { parseTimeSpan } from '../parse-time-span.js';
import { accept, isBlank, refuse, type Codec } from './codec.js';

/** How a key table writes a duration default: `00:30:00`, `1.00:00:00`. */
export type TimeSpanText = `${number}:${number}` | `${number}:${number}:${number}`;

/** The suffix is part of the type, so the configuration type names the field `…Ms` too. */
export const timeSpanCodec: Codec<number, TimeSpanText> & { readonly fieldSuffix: 'Ms' } = {
  display: 'TimeSpan',
  fieldSuffix: 'Ms',
  decode(raw) {
    const ms = typeof raw === 'string' ? parseTimeSpan(raw) : null;
    if (ms === null || ms <= 0) return refuse('must be a positive TimeSpan such as 00:30:00 or 1.00:00:00');
    return accept(ms);
  },
};

/** A duration that may be unset (null, or a blank environment variable): null then. */
export const optionalTimeSpanCodec: Codec<number | null, TimeSpanText | null> & { readonly fieldSuffix: 'Ms' } = {
  display: 'TimeSpan, optional',
  fieldSuffix: 'Ms',
  decode(raw, context) {
    if (isBlank(raw)) return accept(null);
    return timeSpanCodec.decode(raw, context);
  },
};
