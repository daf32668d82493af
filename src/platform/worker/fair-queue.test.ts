import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';

const takeAll = (queue: FairQueue<string>): string[] => {
  const taken: string[] = [];
  for (let next = queue.take(); next !== undefined; next = queue.take()) taken.push(next.item);
  return taken;
};

describe('FairQueue', () => {
  it("gives one owner's items in the order they came, up to its running cap", () => {
    const queue = new FairQueue<string>(2);
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    expect(takeAll(queue)).toEqual(['a1', 'a2']);
    expect(queue.waiting).toBe(1);
    queue.finish('a');
    expect(queue.take()).toEqual({ owner: 'a', item: 'a3' });
  });

  it('serves the owner with the fewest items running first', () => {
    const queue = new FairQueue<string>(3);
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    expect(queue.take()?.item).toBe('a1');
    queue.push('b', 'b1');
    expect(queue.take()?.item).toBe('b1');
  });

  it('breaks ties by who was served least recently, so a long line does not go ahead of newcomers', () => {
    const queue = new FairQueue<string>(1);
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    expect(queue.take()?.item).toBe('a1');
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.finish('a');
    expect(takeAll(queue)).toEqual(['b1', 'c1', 'a2']);
    queue.finish('b');
    queue.finish('c');
    queue.finish('a');
    expect(takeAll(queue)).toEqual(['a3']);
  });

  it('lets a waiting item leave, and forgets owners with nothing waiting or running', () => {
    const queue = new FairQueue<string>(1);
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    expect(queue.withdraw('a', 'a2')).toBe(true);
    expect(queue.withdraw('a', 'a2')).toBe(false);
    expect(queue.waitingFor('a')).toBe(1);
    expect(queue.take()?.item).toBe('a1');
    expect(queue.withdraw('a', 'a1')).toBe(false);
    queue.finish('a');
    expect(() => queue.finish('a')).toThrow();
  });

  it('drains every waiting item', () => {
    const queue = new FairQueue<string>(1);
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('a', 'a2');
    expect(queue.drain().sort()).toEqual(['a1', 'a2', 'b1']);
    expect(queue.waiting).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});
