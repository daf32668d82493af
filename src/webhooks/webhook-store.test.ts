// An owner's subscriptions are kept per instance for matching events (decision 2803): read once, then
// answered from memory for up to SUBSCRIPTIONS_CACHE_MS — and forgotten on every instance the moment
// one of them creates or deletes a subscription of that owner.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage } from '../platform/storage/index.js';
import { SUBSCRIPTIONS_CACHE_MS, WebhookStore, type WebhookData } from './webhook-store.js';

const hook = (id: string): WebhookData => ({ id, url: `https://example.test/${id}`, events: ['workflow.run.finished'], description: null, secret: 'whsec_x', createdAt: 0 });

describe('WebhookStore.listening', () => {
  it('reads an owner’s subscriptions once, forgets them on every instance at a create or delete, and again after the cache time', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const [a, b] = [new WebhookStore(storage), new WebhookStore(storage)];
    const list = vi.spyOn(storage.records, 'list');
    expect(await b.listening('alice')).toEqual([]);
    expect(await b.listening('alice')).toEqual([]);
    expect(list).toHaveBeenCalledTimes(1);

    await a.create('alice', hook('one'));
    await new Promise((resolve) => setImmediate(resolve)); // the signal reaches b
    expect((await b.listening('alice')).map((w) => w.id)).toEqual(['one']);
    expect(list).toHaveBeenCalledTimes(2);
    expect(await b.listening('bob')).toEqual([]);

    await a.delete('alice', 'one');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await b.listening('alice')).toEqual([]);
    const reads = list.mock.calls.length;
    clock.advance(SUBSCRIPTIONS_CACHE_MS - 1);
    await b.listening('alice');
    expect(list).toHaveBeenCalledTimes(reads);
    clock.advance(1);
    await b.listening('alice');
    expect(list).toHaveBeenCalledTimes(reads + 1);
  });
});
