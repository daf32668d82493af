// ReconnectBackoff: pacing of connection attempts, driven by a manual clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import { ReconnectBackoff } from './reconnect-backoff.js';

describe('ReconnectBackoff', () => {
  it('allows the first attempt at once', () => {
    expect(new ReconnectBackoff(new ManualClock()).plan()).toEqual({ kind: 'now' });
  });

  it('makes a reconnect after a good connection wait out the rest of the base interval', () => {
    const clock = new ManualClock();
    const backoff = new ReconnectBackoff(clock, 1_000);
    backoff.succeeded();
    clock.advance(300);
    expect(backoff.plan()).toEqual({ kind: 'wait', ms: 700 });
    clock.advance(700);
    expect(backoff.plan()).toEqual({ kind: 'now' });
  });

  it('refuses attempts with the last error while a failed server is backing off, doubling up to the cap', () => {
    const clock = new ManualClock();
    const backoff = new ReconnectBackoff(clock, 1_000, 3_000);
    const error = new Error('spawn ENOENT');
    backoff.failed(error);
    expect(backoff.plan()).toEqual({ kind: 'refuse', error });
    clock.advance(1_000);
    expect(backoff.plan()).toEqual({ kind: 'now' });
    backoff.failed(error);
    clock.advance(1_999);
    expect(backoff.plan().kind).toBe('refuse');
    clock.advance(1);
    expect(backoff.plan()).toEqual({ kind: 'now' });
    backoff.failed(error);
    backoff.failed(error);
    clock.advance(3_000);
    expect(backoff.plan()).toEqual({ kind: 'now' });
  });

  it('forgets failures once a connection succeeds', () => {
    const clock = new ManualClock();
    const backoff = new ReconnectBackoff(clock, 1_000);
    backoff.failed(new Error('down'));
    backoff.failed(new Error('down'));
    clock.advance(5_000);
    backoff.succeeded();
    clock.advance(400);
    expect(backoff.plan()).toEqual({ kind: 'wait', ms: 600 });
  });
});
