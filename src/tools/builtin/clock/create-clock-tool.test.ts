import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock/index.js';
import type { ToolResult } from '../../tool.js';
import { createClockTool } from './create-clock-tool.js';

const context = { ownerId: 'sub:tester', signal: new AbortController().signal };
const clock = new ManualClock();
const tool = createClockTool({ clock });

const output = (result: ToolResult): unknown => {
  if (!result.ok) throw new Error(`expected success, got ${result.error}`);
  return JSON.parse(result.output);
};
const convert = async (parameters: Record<string, unknown>) => output(await tool.invoke('convert', parameters, context));

describe('clock.now', () => {
  it('reports the injected clock in UTC by default', async () => {
    clock.set(Date.UTC(2026, 0, 1));
    expect(output(await tool.invoke('now', {}, context))).toEqual({
      iso: '2026-01-01T00:00:00.000Z',
      epochMs: 1_767_225_600_000,
      timeZone: 'UTC',
      local: '2026-01-01T00:00:00.000+00:00',
    });
  });

  it('shows the wall time and offset of the requested zone', async () => {
    clock.set(Date.UTC(2026, 6, 1, 12, 0, 0, 250));
    expect(output(await tool.invoke('now', { timeZone: 'Asia/Kolkata' }, context))).toEqual({
      iso: '2026-07-01T12:00:00.250Z',
      epochMs: Date.UTC(2026, 6, 1, 12, 0, 0, 250),
      timeZone: 'Asia/Kolkata',
      local: '2026-07-01T17:30:00.250+05:30',
    });
    expect(output(await tool.invoke('now', { timeZone: 'America/New_York' }, context))).toMatchObject({
      local: '2026-07-01T08:00:00.250-04:00',
    });
  });

  it('answers at once (invokeNow) what invoke answers, failures included', async () => {
    clock.set(Date.UTC(2026, 4, 1, 9, 30));
    for (const [operation, parameters] of [['now', {}], ['now', { timeZone: 'Asia/Kolkata' }], ['now', { timeZone: 'Mars/Olympus' }], ['convert', { time: '2026-05-01T09:30:00Z', toTimeZone: 'Europe/Berlin' }], ['tick', {}]] as const) {
      expect(tool.invokeNow!(operation, parameters, context), `${operation} ${JSON.stringify(parameters)}`).toEqual(await tool.invoke(operation, parameters, context));
    }
  });

  it('answers the canonical spelling of a zone given in another case', async () => {
    expect(output(await tool.invoke('now', { timeZone: 'europe/berlin' }, context))).toMatchObject({
      timeZone: 'Europe/Berlin',
    });
  });

  it('answers a call in the same millisecond and zone with its last answer, and any other anew', async () => {
    const ticking = new ManualClock(Date.UTC(2026, 2, 1));
    const own = createClockTool({ clock: ticking });
    const first = await own.invoke('now', {}, context);
    expect(await own.invoke('now', { timeZone: 'utc' }, context)).toBe(first); // the same zone, spelt otherwise
    const berlin = await own.invoke('now', { timeZone: 'Europe/Berlin' }, context);
    expect(output(berlin)).toMatchObject({ epochMs: Date.UTC(2026, 2, 1), local: '2026-03-01T01:00:00.000+01:00' });
    ticking.advance(1);
    expect(output(await own.invoke('now', { timeZone: 'Europe/Berlin' }, context))).toMatchObject({ epochMs: Date.UTC(2026, 2, 1) + 1, local: '2026-03-01T01:00:00.001+01:00' });
    expect(Object.isFrozen(first)).toBe(true); // shared between calls, so nobody can change it
    // Its value is exactly what its text parses to, frozen too (a workflow step keeps it unparsed).
    expect(first.ok && first.value).toEqual(output(first));
    expect(first.ok && Object.isFrozen(first.value)).toBe(true);
  });

  it('fails naming the zone when the zone is unknown', async () => {
    expect(await tool.invoke('now', { timeZone: 'Mars/Olympus_Mons' }, context)).toEqual({
      ok: false,
      error: 'unknown time zone "Mars/Olympus_Mons"',
    });
  });
});

describe('clock.convert', () => {
  it('shows an instant given with Z in the target zone', async () => {
    expect(await convert({ time: '2026-01-01T00:00:00Z', to: 'Asia/Kathmandu' })).toEqual({
      iso: '2026-01-01T00:00:00.000Z',
      timeZone: 'Asia/Kathmandu',
      local: '2026-01-01T05:45:00.000+05:45',
      offset: '+05:45',
    });
  });

  it('honours an explicit offset and ignores from for an instant', async () => {
    expect(await convert({ time: '2026-07-01T17:30:00+05:30', to: 'UTC', from: 'America/New_York' })).toEqual({
      iso: '2026-07-01T12:00:00.000Z',
      timeZone: 'UTC',
      local: '2026-07-01T12:00:00.000+00:00',
      offset: '+00:00',
    });
    expect(await convert({ time: '2026-07-01T17:30-0230', to: 'UTC' })).toMatchObject({ iso: '2026-07-01T20:00:00.000Z' });
  });

  it('switches New York from EST to EDT at 07:00Z on 2026-03-08', async () => {
    expect(await convert({ time: '2026-03-08T06:59:59Z', to: 'America/New_York' })).toMatchObject({
      local: '2026-03-08T01:59:59.000-05:00',
      offset: '-05:00',
    });
    expect(await convert({ time: '2026-03-08T07:00:00Z', to: 'America/New_York' })).toMatchObject({
      local: '2026-03-08T03:00:00.000-04:00',
      offset: '-04:00',
    });
  });

  it('reads a wall time in from, on either side of the New York spring-forward', async () => {
    expect(await convert({ time: '2026-03-08T01:30:00', from: 'America/New_York', to: 'UTC' })).toMatchObject({
      iso: '2026-03-08T06:30:00.000Z',
    });
    expect(await convert({ time: '2026-03-08T12:00', from: 'America/New_York', to: 'Europe/London' })).toEqual({
      iso: '2026-03-08T16:00:00.000Z',
      timeZone: 'Europe/London',
      local: '2026-03-08T16:00:00.000+00:00',
      offset: '+00:00',
    });
  });

  it('moves a wall time inside the spring-forward gap forward by the gap', async () => {
    expect(await convert({ time: '2026-03-08T02:30:00', from: 'America/New_York', to: 'America/New_York' })).toEqual({
      iso: '2026-03-08T07:30:00.000Z',
      timeZone: 'America/New_York',
      local: '2026-03-08T03:30:00.000-04:00',
      offset: '-04:00',
    });
  });

  it('takes the earlier instant for a wall time repeated by the Berlin fall-back', async () => {
    expect(await convert({ time: '2026-10-25T02:30:00', from: 'Europe/Berlin', to: 'Europe/Berlin' })).toEqual({
      iso: '2026-10-25T00:30:00.000Z',
      timeZone: 'Europe/Berlin',
      local: '2026-10-25T02:30:00.000+02:00',
      offset: '+02:00',
    });
    expect(await convert({ time: '2026-10-25T01:30:00Z', to: 'Europe/Berlin' })).toMatchObject({
      local: '2026-10-25T02:30:00.000+01:00',
      offset: '+01:00',
    });
    expect(await convert({ time: '2026-10-25T03:30', from: 'Europe/Berlin', to: 'UTC' })).toMatchObject({
      iso: '2026-10-25T02:30:00.000Z',
    });
  });

  it('reads a date without a time as midnight in from', async () => {
    expect(await convert({ time: '2026-07-04', from: 'America/New_York', to: 'UTC' })).toMatchObject({
      iso: '2026-07-04T04:00:00.000Z',
    });
  });

  it('shows seconds in offsets from before standard time (local mean time)', async () => {
    expect(await convert({ time: '1800-01-01T12:00:00Z', to: 'America/New_York' })).toMatchObject({
      local: '1800-01-01T07:03:58.000-04:56:02',
      offset: '-04:56:02',
    });
  });

  it('fails when a wall time has no from zone', async () => {
    expect(await tool.invoke('convert', { time: '2026-03-08T02:30', to: 'UTC' }, context)).toEqual({
      ok: false,
      error: 'time has no offset, so "from" (the time zone it is a wall time in) is required',
    });
  });

  it('fails naming an unknown to or from zone', async () => {
    const unknownTo = await tool.invoke('convert', { time: '2026-03-08T02:30Z', to: 'Atlantis/Capital' }, context);
    expect(unknownTo).toEqual({ ok: false, error: 'unknown time zone "Atlantis/Capital"' });
    const unknownFrom = await tool.invoke('convert', { time: '2026-03-08T02:30', to: 'UTC', from: 'EU/Nowhere' }, context);
    expect(unknownFrom).toEqual({ ok: false, error: 'unknown time zone "EU/Nowhere"' });
  });

  it.each(['yesterday', '2026-02-29T10:00', '2026-13-01T00:00Z', '2026-03-08T24:00', '2026-03-08T10:00+24:00', '2026-03-08Z'])(
    'fails on the malformed time %s',
    async (time) => {
      const result = await tool.invoke('convert', { time, to: 'UTC', from: 'UTC' }, context);
      expect(result).toMatchObject({ ok: false });
      expect(!result.ok && result.error).toContain('is not an ISO 8601 date-time');
    },
  );
});

describe('createClockTool', () => {
  it('fails an undeclared operation naming the accepted ones', async () => {
    expect(await tool.invoke('sleep', {}, context)).toEqual({
      ok: false,
      error: 'unknown operation "sleep"; clock accepts now, convert',
    });
  });

  it('never reads the call’s signal (it cannot be interrupted; the governor does not start a cancelled call)', async () => {
    const unread = {
      ownerId: 'sub:tester',
      get signal(): AbortSignal {
        throw new Error('the clock read its signal');
      },
    };
    expect(await tool.invoke('now', {}, unread)).toMatchObject({ ok: true });
  });

  it('fails rather than throws on parameters of the wrong type', async () => {
    expect(await tool.invoke('now', { timeZone: 3 }, context)).toMatchObject({ ok: false });
    expect(await tool.invoke('convert', { time: 3, to: 'UTC' }, context)).toMatchObject({ ok: false });
  });
});
