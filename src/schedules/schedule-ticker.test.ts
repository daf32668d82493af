import { describe, expect, it } from 'vitest';
import { StorageUnavailableError, type StoredRecord } from '../platform/storage/index.js';
import { ManualTicks } from './manual-ticks.js';
import type { ScheduleFirer } from './schedule-firer.js';
import type { ScheduleData } from './schedule-record.js';
import type { ScheduleStore } from './schedule-store.js';
import { ScheduleTicker } from './schedule-ticker.js';

describe('ScheduleTicker', () => {
  it('logs a storage outage once when it starts and once when it ends, and keeps ticking through it', async () => {
    let away = true;
    const fired: string[] = [];
    const due = { id: 's-1' } as StoredRecord<ScheduleData>;
    const store = { due: async () => (away ? Promise.reject(new StorageUnavailableError()) : [due]) } as unknown as ScheduleStore;
    const firer = { fire: async (record: StoredRecord<ScheduleData>) => void fired.push(record.id) } as unknown as ScheduleFirer;
    const lines: Array<[string, string]> = [];
    const log = { warn: (_: object, m: string) => void lines.push(['warn', m]), info: (_: object, m: string) => void lines.push(['info', m]) };
    const ticks = new ManualTicks();
    const ticker = new ScheduleTicker({ store, firer, waiter: ticks, log });
    ticker.start();
    await ticks.step();
    await ticks.step();
    expect(lines).toEqual([['warn', 'the schedule ticker failed; retrying until it works again']]);
    away = false;
    await ticks.step();
    expect(fired).toEqual(['s-1']);
    expect(lines.at(-1)).toEqual(['info', 'the schedule ticker works again']);
    await ticker.stop();
  });

  it('fires what is due on every pass until it is stopped, and nothing after', async () => {
    const fired: string[] = [];
    const store = { due: async () => [{ id: 's-1' }] } as unknown as ScheduleStore;
    const firer = { fire: async (record: StoredRecord<ScheduleData>) => void fired.push(record.id) } as unknown as ScheduleFirer;
    const ticks = new ManualTicks();
    const ticker = new ScheduleTicker({ store, firer, waiter: ticks, log: { warn: () => undefined, info: () => undefined } });
    ticker.start();
    await ticks.step();
    await ticker.stop();
    expect(fired).toEqual(['s-1', 's-1']);
  });
});
