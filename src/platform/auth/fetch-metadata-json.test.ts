import { afterEach, describe, expect, it } from 'vitest';
import { collectRepeatedly } from '../../../test/helpers/force-gc.js';
import { startHangingServer, type HangingServer } from '../../../test/helpers/hanging-server.js';
import { IdentityProviderUnreachable } from './auth-failure.js';
import { fetchMetadataJson } from './fetch-metadata-json.js';

let provider: HangingServer | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('fetching identity metadata from a provider that never answers', () => {
  // Issue 35: the timeout was AbortSignal.any([signal, AbortSignal.timeout(ms)]), lost at the first
  // garbage collection on Node 20, so discovery (and every request waiting on it) hung.
  it('gives up at its timeout as unreachable while full garbage collections run', async () => {
    provider = await startHangingServer();
    const stop = collectRepeatedly(10);
    try {
      const fetching = fetchMetadataJson(new URL(provider.url), 'OpenID discovery', {
        fetch,
        requireHttps: false,
        signal: new AbortController().signal,
        timeoutMs: 300,
      });
      await expect(fetching).rejects.toBeInstanceOf(IdentityProviderUnreachable);
      await expect(fetching).rejects.toThrow(/OpenID discovery unreachable at http:\/\/127\.0\.0\.1:\d+\/slow/);
    } finally {
      stop();
    }
  });
});
