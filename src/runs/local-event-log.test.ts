import { describe, expect, it } from 'vitest';
import { LocalEventLog } from './local-event-log.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('LocalEventLog', () => {
  it('numbers events from 1 and lets a reader join from any sequence number, then follow until close', async () => {
    const log = new LocalEventLog<string>();
    expect(log.append('a')).toBe(1);
    expect(log.append('b')).toBe(2);
    const reading = collect(log.read(1));
    log.append('c');
    log.close();
    expect(await reading).toEqual([
      { seq: 2, event: 'b' },
      { seq: 3, event: 'c' },
    ]);
    expect(await collect(log.read())).toHaveLength(3);
  });

  it('wakes a waiting reader on append rather than polling', async () => {
    const log = new LocalEventLog<number>();
    const iterator = log.read()[Symbol.asyncIterator]();
    const next = iterator.next();
    log.append(42);
    expect(await next).toEqual({ done: false, value: { seq: 1, event: 42 } });
    log.close();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('ends a read when its signal aborts, and refuses appends after close', async () => {
    const log = new LocalEventLog<number>();
    const controller = new AbortController();
    const reading = collect(log.read(0, controller.signal));
    controller.abort();
    expect(await reading).toEqual([]);
    log.close();
    log.close();
    expect(() => log.append(1)).toThrow('closed');
  });
});
