import { afterEach, describe, expect, it } from 'vitest';
import { collectRepeatedly } from '../../test/helpers/force-gc.js';
import { startHangingServer, type HangingServer } from '../../test/helpers/hanging-server.js';
import { DestinationPolicy } from './destination-policy.js';
import { sendWebhook } from './send-webhook.js';

let receiver: HangingServer | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('a webhook attempt to a receiver that accepts the connection and never answers', () => {
  // Issue 35: the attempt's timeout was AbortSignal.any([signal, AbortSignal.timeout(ms)]), lost at the
  // first garbage collection on Node 20, so the attempt (and its delivery slot) waited for ever.
  it('ends at its timeout as a failed attempt while full garbage collections run', async () => {
    receiver = await startHangingServer();
    const stop = collectRepeatedly(10);
    try {
      const attempt = { url: receiver.url, secret: 'whsec_' + Buffer.alloc(24, 7).toString('base64'), eventId: 'evt_1', body: '{}', timestampSeconds: 1 };
      // Long enough for the request to reach the receiver on a busy machine (300 ms was not, under a
      // second test run and the collections); the point is that it ends at all.
      const result = await sendWebhook(attempt, new DestinationPolicy(['127.0.0.1']), new AbortController().signal, 1_500);
      expect(receiver.waiting()).toBe(1); // it did reach the receiver, which never answered
      expect(result.responseStatus).toBeNull();
      expect(result.durationMs).toBeGreaterThanOrEqual(1_490);
    } finally {
      stop();
    }
  });

  it('ends at once, throwing the stop reason, when the instance stops during the attempt', async () => {
    receiver = await startHangingServer();
    const stopping = new AbortController();
    const attempt = { url: receiver.url, secret: 'whsec_' + Buffer.alloc(24, 7).toString('base64'), eventId: 'evt_2', body: '{}', timestampSeconds: 1 };
    const sent = sendWebhook(attempt, new DestinationPolicy(['127.0.0.1']), stopping.signal, 60_000);
    await expect.poll(() => receiver?.waiting()).toBe(1);
    stopping.abort(new Error('the instance is stopping'));
    await expect(sent).rejects.toThrow('the instance is stopping');
  });
});
