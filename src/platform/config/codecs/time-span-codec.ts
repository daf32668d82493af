// Durations: positive .NET TimeSpan strings, delivered in milliseconds (fields get an `Ms` suffix).
import { parseTimeSpan } from '../parse-time-span.js';
import { accept, refuse, type Codec } from './codec.js';

export const timeSpanCodec: Codec<number> = {
  display: 'TimeSpan',
  fieldSuffix: 'Ms',
  decode(raw) {
    const ms = typeof raw === 'string' ? parseTimeSpan(raw) : null;
    if (ms === null || ms <= 0) return refuse('must be a positive TimeSpan such as 00:30:00 or 1.00:00:00');
    return accept(ms);
  },
};
