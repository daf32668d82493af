import { describe, expect, it } from 'vitest';
import { resolveTimeZone } from './resolve-time-zone.js';

describe('resolveTimeZone', () => {
  it('keeps a current IANA name that ICU would replace by its legacy alias', () => {
    expect(resolveTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(resolveTimeZone('Asia/Kathmandu')).toBe('Asia/Kathmandu');
  });

  it('fixes the case of a name Intl knows under the same spelling', () => {
    expect(resolveTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('utc')).toBe('UTC');
  });

  it('rejects unknown names and bare offsets', () => {
    expect(resolveTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(resolveTimeZone('+01:00')).toBeUndefined();
    expect(resolveTimeZone('')).toBeUndefined();
  });
});
