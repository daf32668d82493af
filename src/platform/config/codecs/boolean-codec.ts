// Booleans: JSON true/false, or the strings "true"/"false" in any case (environment variables).
import { accept, refuse, type Codec } from './codec.js';

export const booleanCodec: Codec<boolean> = {
  display: 'boolean',
  decode(raw) {
    if (typeof raw === 'boolean') return accept(raw);
    if (typeof raw === 'string') {
      const text = raw.trim().toLowerCase();
      if (text === 'true') return accept(true);
      if (text === 'false') return accept(false);
    }
    return refuse('must be true or false');
  },
};
