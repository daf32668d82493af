import { describe, expect, it } from 'vitest';
import { formatOffset, zoneOffsetReader } from './zone-offset.js';

describe('zoneOffsetReader', () => {
  it.each(['UTC', 'Etc/UTC', 'GMT', 'Zulu'])('reads no offset for %s at any instant', (zone) => {
    const read = zoneOffsetReader(zone);
    expect([read(0), read(Date.UTC(2026, 6, 1)), read(Date.UTC(1850, 0, 1))]).toEqual([0, 0, 0]);
  });

  it('follows daylight saving time in other zones', () => {
    const london = zoneOffsetReader('Europe/London');
    expect(london(Date.UTC(2026, 0, 15))).toBe(0);
    expect(london(Date.UTC(2026, 6, 15))).toBe(3_600_000);
    expect(formatOffset(zoneOffsetReader('Asia/Kolkata')(Date.UTC(2026, 0, 1)))).toBe('+05:30');
  });
});
