import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { FixedWindowRateLimiter } from './fixed-window-rate-limiter.js';

function build(permitsPerMinute: number, maxKeys?: number) {
  const clock = new ManualClock();
  return { clock, limiter: new FixedWindowRateLimiter({ permitsPerMinute, clock, maxKeys }) };
}

describe('FixedWindowRateLimiter', () => {
  it('permits exactly N requests in a window, counting down the remainder', () => {
    const { limiter } = build(3);
    expect([1, 2, 3].map(() => limiter.take('owner'))).toEqual([
      { allowed: true, remaining: 2 },
      { allowed: true, remaining: 1 },
      { allowed: true, remaining: 0 },
    ]);
    expect(limiter.take('owner').allowed).toBe(false);
  });

  it('refuses request N+1 with the whole seconds left until the window resets', () => {
    const { clock, limiter } = build(2);
    limiter.take('owner');
    clock.advance(10_000);
    limiter.take('owner');
    expect(limiter.take('owner')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    clock.advance(39_500); // 49.5 s into the window: 10.5 s left
    expect(limiter.take('owner')).toEqual({ allowed: false, retryAfterSeconds: 11 });
    clock.advance(10_499); // 1 ms left
    expect(limiter.take('owner')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('opens a fresh window sixty seconds after the first request of the last one', () => {
    const { clock, limiter } = build(1);
    limiter.take('owner');
    clock.advance(59_999);
    expect(limiter.take('owner').allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('owner')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('owner').allowed).toBe(false);
  });

  it('counts each key on its own', () => {
    const { limiter } = build(1);
    expect(limiter.take('alice').allowed).toBe(true);
    expect(limiter.take('alice').allowed).toBe(false);
    expect(limiter.take('bob').allowed).toBe(true);
    expect(limiter.take('203.0.113.9').allowed).toBe(true);
  });

  it('tracks at most maxKeys windows, forgetting the oldest first', () => {
    const { clock, limiter } = build(1, 2);
    limiter.take('a');
    clock.advance(1);
    limiter.take('b');
    clock.advance(1);
    limiter.take('c');
    expect(limiter.trackedKeys).toBe(2);
    expect(limiter.take('b').allowed).toBe(false);
    expect(limiter.take('c').allowed).toBe(false);
    expect(limiter.take('a').allowed).toBe(true); // its window was evicted
  });

  it('forgets windows once they have expired', () => {
    const { clock, limiter } = build(5);
    limiter.take('a');
    limiter.take('b');
    clock.advance(60_000);
    limiter.take('c');
    expect(limiter.trackedKeys).toBe(1);
  });

  it('refuses a permit count or key bound that is not a positive integer', () => {
    const clock = new ManualClock();
    expect(() => new FixedWindowRateLimiter({ permitsPerMinute: 0, clock })).toThrow(RangeError);
    expect(() => new FixedWindowRateLimiter({ permitsPerMinute: 1.5, clock })).toThrow(RangeError);
    expect(() => new FixedWindowRateLimiter({ permitsPerMinute: 1, clock, maxKeys: 0 })).toThrow(RangeError);
  });
});
