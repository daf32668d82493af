import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS, retryDelayMs } from './retry-delay.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('retryDelayMs', () => {
  it('backs off exponentially with equal jitter', () => {
    expect(retryDelayMs({ attempt: 0, headers: {}, now, random: 0 })).toBe(250);
    expect(retryDelayMs({ attempt: 0, headers: {}, now, random: 0.999 })).toBe(500);
    expect(retryDelayMs({ attempt: 2, headers: {}, now, random: 0 })).toBe(1000);
    expect(retryDelayMs({ attempt: 20, headers: {}, now, random: 1 })).toBe(MAX_DELAY_MS);
  });

  it('prefers retry-after-ms, then Retry-After seconds, then an HTTP date', () => {
    expect(retryDelayMs({ attempt: 0, headers: { 'retry-after-ms': '120', 'retry-after': '9' }, now, random: 0.5 })).toBe(120);
    expect(retryDelayMs({ attempt: 0, headers: { 'retry-after': '1.5' }, now, random: 0.5 })).toBe(1500);
    expect(retryDelayMs({ attempt: 0, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now, random: 0.5 })).toBe(10_000);
  });

  it('caps advised delays, floors past dates at zero and ignores nonsense', () => {
    expect(retryDelayMs({ attempt: 0, headers: { 'retry-after': '86400' }, now, random: 0 })).toBe(MAX_DELAY_MS);
    expect(retryDelayMs({ attempt: 0, headers: { 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now, random: 0 })).toBe(0);
    expect(retryDelayMs({ attempt: 1, headers: { 'retry-after': 'soon' }, now, random: 0 })).toBe(500);
  });
});
